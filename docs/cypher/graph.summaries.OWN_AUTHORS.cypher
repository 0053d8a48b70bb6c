// graph.summaries.OWN_AUTHORS
MATCH (e:Entry {project_id: $project_id})
WITH e WHERE e.author_id IS NOT NULL AND e.intimacy IN ['private', 'intimate']
RETURN e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
