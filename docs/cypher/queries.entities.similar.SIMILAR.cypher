// queries.entities.similar.SIMILAR
MATCH (:User {id: $viewer_id})-[m:MEMBER_OF]->(:Project {id: $project_id})
WITH collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles WHERE size(roles) > 0
WITH CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END IN ['owner', 'coauthor'] AS inner_view
CALL {
  WITH inner_view
  MATCH (v:EntityVector {entity_id: $entity_id})
  WHERE v.project_id = $project_id AND v.model = $model AND (v.audience = 'shared' OR (v.audience = 'inner' AND inner_view)
   OR (v.user_id = $viewer_id AND v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END))
  RETURN v.vector AS target ORDER BY CASE v.audience WHEN 'shared' THEN 0 WHEN 'inner' THEN 1 ELSE 2 END DESC LIMIT 1
}
CALL (inner_view) {
  MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'shared'}) RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'inner'}) WHERE inner_view RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, user_id: $viewer_id})
  WHERE v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END RETURN v
}
WITH target, v WHERE v.entity_id <> $entity_id AND ($kind IS NULL OR v.kind = $kind)
WITH target, v ORDER BY CASE v.audience WHEN 'shared' THEN 0 WHEN 'inner' THEN 1 ELSE 2 END DESC
WITH target, v.entity_id AS id, head(collect(v)) AS v
WITH id, v, 2 * vector.similarity.cosine(target, v.vector) - 1 AS score
ORDER BY score DESC, id
LIMIT $over
MATCH (v)-[:VECTOR_OF]->(x)
WITH x, v, score, CASE WHEN x:Period THEN v.name ELSE coalesce(COLLECT { MATCH (d:Declaration)-[:DECLARES]->(x) WHERE (
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
                           WITH d ORDER BY d.created_at, d.id RETURN d.name }[0], v.name) END AS name
WHERE name IS NOT NULL
RETURN x.id AS id, name, v.kind AS kind, score, v.entries AS entries
ORDER BY score DESC, id
LIMIT $limit
