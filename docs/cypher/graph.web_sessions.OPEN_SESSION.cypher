// graph.web_sessions.OPEN_SESSION
CREATE (:WebSession {key: $key, user_id: $user_id, created_at: $now, renewed_at: $now,
                     expires_at: $expires_at, ends_at: $ends_at})
