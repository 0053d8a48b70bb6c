// graph.export.MEMBERS
MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $project_id})
WHERE $own_author IS NULL OR u.id = $own_author
WITH u, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
OPTIONAL MATCH (u)-[:IS_PERSON {project_id: $project_id}]->(n:Person)
RETURN u.id AS user_id, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role, CASE WHEN coalesce(
  COLLECT { MATCH (sd:Declaration)-[:DECLARES]->(n) WHERE sd.intimacy IN ['circle', 'public']
            WITH sd ORDER BY sd.created_at, sd.id RETURN sd.name }[0],
  COLLECT { MATCH (se:Entry)-[sm:MENTIONS]->(n)
            WHERE se.intimacy IN ['circle', 'public'] AND (sm.author IS NULL OR sm.count > 0)
            RETURN sm.name AS sn ORDER BY sn LIMIT 1 }[0]) IS NOT NULL THEN n.id END AS person
ORDER BY u.id
