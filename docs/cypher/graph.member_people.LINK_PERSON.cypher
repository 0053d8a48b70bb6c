// graph.member_people.LINK_PERSON
MATCH (u:User {id: $user_id})-[:MEMBER_OF]->(:Project {id: $project_id})
MATCH (n:Person {id: $person_id}) WHERE n.project_id = $project_id
OPTIONAL MATCH (u)-[old:IS_PERSON {project_id: $project_id}]->()
WITH u, n, collect(old) AS olds
FOREACH (o IN olds | DELETE o)
CREATE (u)-[l:IS_PERSON {project_id: $project_id, declared_by: $declared_by, declared_at: datetime()}]->(n)
RETURN n.id AS person_id, coalesce(
  COLLECT { MATCH (sd:Declaration)-[:DECLARES]->(n) WHERE sd.intimacy IN ['circle', 'public']
            WITH sd ORDER BY sd.created_at, sd.id RETURN sd.name }[0],
  COLLECT { MATCH (se:Entry)-[sm:MENTIONS]->(n)
            WHERE se.intimacy IN ['circle', 'public'] AND (sm.author IS NULL OR sm.count > 0)
            RETURN sm.name AS sn ORDER BY sn LIMIT 1 }[0]) AS name
