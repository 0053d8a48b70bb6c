// graph.entity_vectors.ROLES
UNWIND $users AS uid
OPTIONAL MATCH (:User {id: uid})-[m:MEMBER_OF]->(:Project {id: $project_id})
WITH uid, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
RETURN uid, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role
