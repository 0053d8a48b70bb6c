// graph.export.COUNT_ENTRIES
MATCH (e:Entry) WHERE e.project_id = $project_id RETURN count(e) AS n
