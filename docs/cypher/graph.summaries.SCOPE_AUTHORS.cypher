// graph.summaries.SCOPE_AUTHORS
MATCH (e:Entry {project_id: $project_id})
RETURN e.author_id AS author_id, collect(DISTINCT e.intimacy) AS levels
