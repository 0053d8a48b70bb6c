// graph.web_sessions.USE_LINK
MATCH (k:SignInKey {key: $key, kind: 'link'})
SET k._lock = true
WITH k
WITH k, k.kind = 'link' AND k.expires_at > $now AS usable
SET k.key = CASE WHEN usable THEN $picker ELSE k.key END,
    k.kind = CASE WHEN usable THEN 'picker' ELSE k.kind END,
    k.expires_at = CASE WHEN usable THEN $expires_at ELSE k.expires_at END
REMOVE k._lock
RETURN usable
