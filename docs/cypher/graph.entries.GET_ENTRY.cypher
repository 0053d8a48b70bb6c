// graph.entries.GET_ENTRY
MATCH (e:Entry {id: $id})
WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: e.project_id})
     WHERE e.intimacy IN ['circle', 'public']
        OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
        OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
)

OPTIONAL MATCH (e)-[xm:MENTIONS]->(x) WHERE ($witness_period_id IS NULL OR xm.witness_hidden IS NULL)
WITH e, collect(DISTINCT {kind: x.kind, name: xm.name}) AS xs
OPTIONAL MATCH (e)-[:IN_PERIOD]->(per:Period)
WITH e, xs, collect(DISTINCT per) AS pers
RETURN e {.*} AS entry,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons,
       [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       [x IN xs WHERE x.kind = 'thing' | x.name] AS things,
       [p IN pers | {id: p.id, name: coalesce(e.period_name, e.auto_period_name, substring(p.id, size(p.project_id) + size('/period/')))}] AS periods,
       COUNT { MATCH (c:Chunk)-[:OF]->(e) WHERE c.embedding_status <> 'done' } AS pending
