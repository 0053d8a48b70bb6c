// queries.search.view_build.CHUNK_VECTORS
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

UNWIND $ids AS id
MATCH (c:Chunk {id: id})-[:OF]->(e:Entry)
WHERE c[$prop] IS NOT NULL AND e.project_id IN $project_ids AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
RETURN c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash, coalesce(c[$stores_key], 0) AS stores,
       c[$prop] AS vector
