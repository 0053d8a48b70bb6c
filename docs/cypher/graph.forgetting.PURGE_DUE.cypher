// graph.forgetting.PURGE_DUE
MERGE (m:PurgeDue {id: 'store'}) ON CREATE SET m.since = datetime()
