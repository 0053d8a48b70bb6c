// ingest.relink.CONVERSATIONS_LAGGING
MATCH (e:Entry)
WHERE (e.thread_id IS NOT NULL AND coalesce(e.thread_rule, 1) < $rule)
   OR (e.thread_rule IS NULL AND e.metadata CONTAINS '"session"')
RETURN e.id AS id, coalesce(e.thread_pos, 0) AS pos ORDER BY e.project_id, e.thread_id, pos, id
