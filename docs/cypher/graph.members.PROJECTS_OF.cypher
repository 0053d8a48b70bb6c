// graph.members.PROJECTS_OF
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p:Project)
WITH p, collect(coalesce(m.role, "")) AS roles
RETURN p.id AS project_id, p.name AS name, CASE WHEN 'owner' IN roles THEN 'owner' WHEN 'coauthor' IN roles THEN 'coauthor'
ELSE 'reader' END AS role ORDER BY p.id
