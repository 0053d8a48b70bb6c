// graph.web_sessions.SWEEP_KEYS
MATCH (k:SignInKey) WHERE k.expires_at <= $now
WITH k LIMIT $batch
DELETE k
