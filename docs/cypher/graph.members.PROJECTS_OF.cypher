// graph.members.PROJECTS_OF
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p:Project)
WITH p, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
RETURN p.id AS project_id, p.name AS name, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role ORDER BY p.id
