// queries.search.visible_view.CHUNK_VECTORS
UNWIND $ids AS id
MATCH (c:Chunk {id: id})-[:OF]->(e:Entry)
WHERE c[$prop] IS NOT NULL AND e.project_id IN $project_ids AND (
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
RETURN c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash, coalesce(c[$stores_key], 0) AS stores,
       c[$prop] AS vector
