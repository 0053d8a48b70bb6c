// graph.web_sessions.END_SESSION
MATCH (s:WebSession {key: $key}) DELETE s
