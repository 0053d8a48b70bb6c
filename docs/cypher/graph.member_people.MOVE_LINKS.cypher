// graph.member_people.MOVE_LINKS
MATCH (u:User)-[l:IS_PERSON]->(:Person {id: $from_id})
WHERE $users IS NULL OR u.id IN $users
MATCH (t:Person {id: $into_id})
CREATE (u)-[:IS_PERSON {project_id: l.project_id, declared_by: l.declared_by, declared_at: l.declared_at}]->(t)
DELETE l
RETURN u.id AS user_id ORDER BY user_id
