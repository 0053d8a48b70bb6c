// graph.summaries.HAS_OWN
MATCH (e:Entry {project_id: $project_id})
WITH e WHERE e.author_id = $owner AND NOT (e.intimacy IN ['circle', 'public'] OR ($base = 'inner' AND e.intimacy = 'intimate')
     OR (null IS NOT NULL AND e.author_id = null))
RETURN count(e) > 0 AS own
