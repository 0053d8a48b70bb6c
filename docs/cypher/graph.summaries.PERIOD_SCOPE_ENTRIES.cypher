// graph.summaries.PERIOD_SCOPE_ENTRIES
MATCH (:Period {id: $period_id})<-[:PART_OF*0..5]-(:Period)<-[:IN_PERIOD]-(scoped:Entry)
WHERE scoped.project_id = $project_id
WITH DISTINCT scoped AS e
WITH e WHERE (e.intimacy IN ['circle', 'public'] OR ($base = 'inner' AND e.intimacy = 'intimate')
     OR ($owner IS NOT NULL AND e.author_id = $owner))
OPTIONAL MATCH (e)-[m:MENTIONS]->(x)
WITH e, collect(DISTINCT {kind: x.kind, name: m.name}) AS xs
RETURN e.id AS id, e.body AS text, e.title AS title, coalesce(e.occurred_on, toString(e.occurred_start)) AS occurred_on,
       e.author_id AS author_id, coalesce(e.tags, []) AS tags,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons, [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       COLLECT { MATCH (e)-[:IN_PERIOD]->(per:Period) RETURN per.id }[0] AS period_id
ORDER BY e.occurred_start, e.occurred_at, e.thread_pos, e.id
