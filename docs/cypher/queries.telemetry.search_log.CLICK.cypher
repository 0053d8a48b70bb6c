// queries.telemetry.search_log.CLICK
MATCH (s:SearchLog {id: $id}) WHERE s.user_id = $user_id
SET s.clicks = s.clicks + [$position]
RETURN count(s) AS n
