// graph.web_sessions.SESSION_OF
MATCH (s:WebSession {key: $key}) WHERE s.expires_at > $now
RETURN s.user_id AS user_id, s.renewed_at AS renewed_at
