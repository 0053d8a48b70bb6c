// graph.members.ROLE_OF
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(:Project {id: $project_id}) RETURN m.role AS role
