// Web sign-ins (graph/web_sessions.py): a session and a sign-in key are found by the hash of the secret their
// browser holds; a member's sessions by user, to end them all at a role change; expired ones by their end.
CREATE CONSTRAINT web_session_key IF NOT EXISTS FOR (s:WebSession) REQUIRE s.key IS UNIQUE;
CREATE INDEX web_session_user IF NOT EXISTS FOR (s:WebSession) ON (s.user_id);
CREATE INDEX web_session_end IF NOT EXISTS FOR (s:WebSession) ON (s.expires_at);
CREATE CONSTRAINT signin_key IF NOT EXISTS FOR (k:SignInKey) REQUIRE k.key IS UNIQUE;
CREATE INDEX signin_key_end IF NOT EXISTS FOR (k:SignInKey) ON (k.expires_at);
