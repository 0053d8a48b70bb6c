// graph.candidates.CANDIDATE_SOURCES
MATCH (e:Entry {project_id: $project_id})
WHERE e.spotted_keys IS NOT NULL AND $key IN e.spotted_keys AND (
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
UNWIND range(0, size(e.spotted_keys) - 1) AS i
WITH e, e.spotted_kinds[i] AS kind, e.spotted_keys[i] AS key, e.spotted_names[i] AS name, e.spotted_counts[i] AS n

WITH e, kind, key, name, n WHERE key = $key
RETURN kind, name, n, e.intimacy AS intimacy
