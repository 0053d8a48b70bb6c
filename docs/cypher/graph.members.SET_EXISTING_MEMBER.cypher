// graph.members.SET_EXISTING_MEMBER
MATCH (p:Project {id: $project_id})
MERGE (u:User {id: $user_id})
ON CREATE SET u.name = $user_id, u.created_at = datetime()
MERGE (u)-[m:MEMBER_OF]->(p)
SET m.role = $role, m.updated_at = datetime()
RETURN m.role AS role
