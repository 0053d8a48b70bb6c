// graph.web_sessions.ADD_LINK
CREATE (:SignInKey {key: $key, kind: 'link', expires_at: $expires_at})
