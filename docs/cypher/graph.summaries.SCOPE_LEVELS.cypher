// graph.summaries.SCOPE_LEVELS
MATCH (e:Entry {project_id: $project_id})
RETURN collect(DISTINCT e.intimacy) AS levels
