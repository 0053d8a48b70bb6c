// ingest.relink.WITNESS_VIEW_MISSING
MATCH (e:Entry {intimacy: 'circle'})
WHERE e.period_name IS NOT NULL AND e.witness_view IS NULL
  AND EXISTS { MATCH (d:Declaration {project_id: e.project_id}) WHERE d.intimacy <> 'public' }
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY id
