// graph.web_sessions.RENEW_SESSION
MATCH (s:WebSession {key: $key}) WHERE s.expires_at > $now
SET s.renewed_at = $now, s.expires_at = CASE WHEN $now + $idle < s.ends_at THEN $now + $idle ELSE s.ends_at END
