// queries.telemetry.search_log.FIND
MATCH (s:SearchLog {id: $id}) RETURN s.user_id AS user_id, s.result_ids AS result_ids
