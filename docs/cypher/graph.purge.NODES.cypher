// graph.purge.NODES
MATCH (n) WHERE NOT n:PurgeDue RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props
