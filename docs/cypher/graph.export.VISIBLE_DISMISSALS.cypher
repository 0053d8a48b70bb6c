// graph.export.VISIBLE_DISMISSALS
MATCH (d:Dismissal) WHERE d.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: d.project_id})
     WHERE d.intimacy IN ['circle', 'public']
        OR (d.intimacy = 'private' AND d.author_id = $viewer_id)
        OR (d.intimacy = 'intimate' AND (d.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND d.intimacy = 'public'
      AND EXISTS { MATCH (:Period {id: $witness_period_id, project_id: d.project_id}) })
) AND ($own_author IS NULL OR d.author_id = $own_author)
RETURN d.kind AS kind, d.name AS name, d.intimacy AS audience, d.author_id AS author,
       toString(d.created_at) AS created_at, d.entity_id AS entity
ORDER BY d.created_at, d.key, d.intimacy, coalesce(d.author_id, '')
