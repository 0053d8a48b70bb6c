// graph.web_sessions.PICKER
MATCH (k:SignInKey {key: $key, kind: 'picker'}) WHERE k.expires_at > $now RETURN count(k) > 0 AS ok
