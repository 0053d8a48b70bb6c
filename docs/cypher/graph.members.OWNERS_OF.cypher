// graph.members.OWNERS_OF
MATCH (u:User)-[:MEMBER_OF {role: 'owner'}]->(:Project {id: $project_id}) RETURN u.id AS user_id
