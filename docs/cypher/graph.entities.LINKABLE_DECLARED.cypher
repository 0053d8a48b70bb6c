// graph.entities.LINKABLE_DECLARED
MATCH (d:Declaration)-[:DECLARES]->(n)
WHERE d.project_id = $project_id AND d.intimacy IN $levels
  AND (d.intimacy IN ['circle', 'public'] OR (d.author_id IS NOT NULL AND d.author_id = $author_id))
WITH n, d ORDER BY d.created_at, d.id
WITH n, collect(d) AS ds
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, ds[0].name AS name,
       reduce(acc = [], d IN ds | acc + d.aliases) AS aliases
ORDER BY n.id
