// graph.entries.VISIBLE_REUSABLE_VECTORS
UNWIND $rows AS row
MATCH (c:Chunk {embedding_hash: row.hash})-[:OF]->(e:Entry)
WHERE e.project_id = row.project_id AND c[$prop] IS NOT NULL AND (
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
WITH row.project_id AS project_id, row.hash AS hash, head(collect(c)) AS c
RETURN project_id, hash, c[$prop] AS vector, c.sparse_tokens AS sparse_tokens, c.sparse_weights AS sparse_weights
