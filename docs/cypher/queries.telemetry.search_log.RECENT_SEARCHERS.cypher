// queries.telemetry.search_log.RECENT_SEARCHERS
MATCH (s:SearchLog)
WHERE s.at IS NOT NULL AND s.user_id IS NOT NULL AND coalesce(s.witness, false) = false AND size(s.project_ids) = 1
WITH s ORDER BY s.at DESC LIMIT 500
WITH s.user_id AS user_id, s.project_ids[0] AS project_id, max(s.at) AS last
RETURN user_id, project_id ORDER BY last DESC, user_id, project_id LIMIT $limit
