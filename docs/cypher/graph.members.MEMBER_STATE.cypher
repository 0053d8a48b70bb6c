// graph.members.MEMBER_STATE
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p)
WITH p, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
RETURN CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role,
       size(COLLECT { MATCH (o:User)-[:MEMBER_OF {role: 'owner'}]->(p) RETURN DISTINCT o.id }) AS owners
