// graph.web_sessions.SWEEP_SESSIONS
MATCH (s:WebSession) WHERE s.expires_at <= $now
WITH s LIMIT $batch
DELETE s
