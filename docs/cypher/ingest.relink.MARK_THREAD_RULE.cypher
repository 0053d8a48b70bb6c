// ingest.relink.MARK_THREAD_RULE
UNWIND $ids AS id MATCH (e:Entry {id: id})
SET e.thread_rule = CASE WHEN e.thread_id IS NULL THEN 0 ELSE $rule END
