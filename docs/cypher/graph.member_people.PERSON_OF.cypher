// graph.member_people.PERSON_OF
MATCH (u:User {id: $user_id})-[:IS_PERSON {project_id: $project_id}]->(n:Person)
WHERE EXISTS { MATCH (u)-[:MEMBER_OF]->(:Project {id: $project_id}) }
WITH n, coalesce(
  COLLECT { MATCH (sd:Declaration)-[:DECLARES]->(n) WHERE sd.intimacy IN ['circle', 'public']
            WITH sd ORDER BY sd.created_at, sd.id RETURN sd.name }[0],
  COLLECT { MATCH (se:Entry)-[sm:MENTIONS]->(n)
            WHERE se.intimacy IN ['circle', 'public'] AND (sm.author IS NULL OR sm.count > 0)
            RETURN sm.name AS sn ORDER BY sn LIMIT 1 }[0]) AS name
RETURN n.id AS person_id, name, name IS NOT NULL AS shared
