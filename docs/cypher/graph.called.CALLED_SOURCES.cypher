// graph.called.CALLED_SOURCES
MATCH (x:Person {id: $entity_id, project_id: $project_id})
MATCH (ce:Entry)-[cm:MENTIONS]->(x)
WHERE (cm.introduced IS NOT NULL OR cm.addressed IS NOT NULL) AND (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: ce.project_id})
     WHERE ce.intimacy IN ['circle', 'public']
        OR (ce.intimacy = 'private' AND ce.author_id = $viewer_id)
        OR (ce.intimacy = 'intimate' AND (ce.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND ce.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (ce)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
) AND ($witness_period_id IS NULL OR cm.witness_hidden IS NULL)
UNWIND coalesce(cm.introduced, []) + coalesce(cm.addressed, []) AS called
RETURN DISTINCT called, ce.intimacy AS intimacy
