// graph.web_sessions.END_SESSIONS_OF
MATCH (s:WebSession {user_id: $user_id})
DELETE s
RETURN count(*) AS ended
