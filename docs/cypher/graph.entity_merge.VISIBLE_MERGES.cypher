// graph.entity_merge.VISIBLE_MERGES
MATCH (d:EntityMerge {project_id: $project_id, from_key: $key})
WHERE ($kind IS NULL OR d.kind = $kind) AND d.author_id = $viewer_id AND (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: d.project_id})
     WHERE d.intimacy IN ['circle', 'public']
        OR (d.intimacy = 'private' AND d.author_id = $viewer_id)
        OR (d.intimacy = 'intimate' AND (d.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND d.intimacy = 'public'
      AND EXISTS { MATCH (:Period {id: $witness_period_id, project_id: d.project_id}) })
)
RETURN d {.*} AS merge ORDER BY d.created_at DESC LIMIT 1
