// queries.entities.similar.VISIBLE_NAMES
MATCH (:User {id: $viewer_id})-[m:MEMBER_OF]->(:Project {id: $project_id})
WITH collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles WHERE size(roles) > 0
WITH CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END IN ['owner', 'coauthor'] AS inner_view
CALL (inner_view) {
  MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'shared'}) RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, audience: 'inner'}) WHERE inner_view RETURN v
  UNION MATCH (v:EntityVector {project_id: $project_id, model: $model, user_id: $viewer_id})
  WHERE v.audience = CASE WHEN inner_view THEN 'writer' ELSE 'reader' END RETURN v
}
WITH v WHERE $grams IS NULL OR v.entity_id IN $grams OR any(k IN v.keys WHERE k IN $grams)
WITH v.entity_id AS id, v ORDER BY CASE v.audience WHEN 'shared' THEN 0 WHEN 'inner' THEN 1 ELSE 2 END DESC
WITH id, head(collect(v)) AS v
RETURN id, v.kind AS kind, v.name AS name, v.keys AS keys
ORDER BY id
