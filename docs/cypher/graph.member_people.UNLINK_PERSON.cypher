// graph.member_people.UNLINK_PERSON
MATCH (:User {id: $user_id})-[l:IS_PERSON {project_id: $project_id}]->(n:Person)
DELETE l
RETURN n.id AS person_id
