// graph.entity_vectors.ROLES
UNWIND $users AS uid
OPTIONAL MATCH (:User {id: uid})-[m:MEMBER_OF]->(:Project {id: $project_id})
RETURN uid, m.role AS role
