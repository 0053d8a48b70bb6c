// graph.members.OWNERS_OF
MATCH (u:User)-[:MEMBER_OF {role: 'owner'}]->(:Project {id: $project_id}) RETURN DISTINCT u.id AS user_id
