// graph.members.PROJECTS_OF
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p:Project)
RETURN p.id AS project_id, p.name AS name, m.role AS role ORDER BY p.id
