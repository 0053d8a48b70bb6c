// graph.members.REMOVE_MEMBER
MATCH (:User {id: $user_id})-[m:MEMBER_OF]->(:Project {id: $project_id})
DELETE m
RETURN count(m) AS removed
