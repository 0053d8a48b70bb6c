// ingest.relink.PROJECT_ENTRIES
MATCH (e:Entry {project_id: $project_id})
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY id
