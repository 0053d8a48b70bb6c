// graph.members.ROLE_OF
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(:Project {id: $project_id})
WITH collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles WHERE size(roles) > 0
RETURN CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role
