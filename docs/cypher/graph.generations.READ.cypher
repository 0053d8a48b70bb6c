// graph.generations.READ
UNWIND $project_ids AS pid
OPTIONAL MATCH (p:Project {id: pid})
OPTIONAL MATCH (:User {id: $viewer_id})-[m:MEMBER_OF]->(p)
WITH pid, p, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
WITH pid, p, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role
RETURN pid AS project_id, role, toString(p.created_at) AS incarnation,
       coalesce(p.search_generation, 0) AS generation,
       CASE WHEN role IN ['owner', 'coauthor'] THEN coalesce(p.search_generation_inner, 0) END AS inner,
       CASE WHEN $own_key IS NULL THEN null ELSE coalesce(p[$own_key], 0) END AS own
ORDER BY project_id
