// graph.purge.DUE_SINCE
MATCH (m:PurgeDue {id: 'store'}) RETURN toString(m.since) AS since
