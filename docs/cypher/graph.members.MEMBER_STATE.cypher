// graph.members.MEMBER_STATE
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(p)
RETURN m.role AS role, COUNT { (:User)-[:MEMBER_OF {role: 'owner'}]->(p) } AS owners
