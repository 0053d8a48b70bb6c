// graph.member_people.IS_LINKED
MATCH (:User {id: $user_id})-[l:IS_PERSON {project_id: $project_id}]->() RETURN count(l) AS n
