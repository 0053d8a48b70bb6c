// graph.automatic_periods.RECUT
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WITH e, row

OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(target)<-[:VECTOR_OF]-(stale:EntityVector)
WHERE e.intimacy IN ['circle', 'public']
   OR (e.intimacy = 'intimate' AND (stale.audience IN ['inner', 'writer'] OR stale.user_id = e.author_id))
   OR (e.intimacy = 'private' AND stale.user_id = e.author_id)
SET target.vectors_signature = null
DETACH DELETE stale
WITH DISTINCT e, row
OPTIONAL MATCH (e)-[old:IN_PERIOD]->(:Period {automatic: true})
DELETE old
WITH DISTINCT e, row
SET e.period_rule = $rule, e.auto_period_name = row.name
WITH e, row WHERE row.period_id IS NOT NULL
MATCH (p:Project {id: e.project_id})
MERGE (per:Period {id: row.period_id})
ON CREATE SET per.project_id = e.project_id, per.level = 'chapter', per.automatic = true, per.created_at = datetime()
MERGE (per)-[:PART_OF]->(p)
MERGE (e)-[:IN_PERIOD]->(per)
