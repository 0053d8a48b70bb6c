"""Web sign-ins, kept in the graph: a browser holds only a random secret, the graph its hash, whose it is and until
when. So a sign-in ends wherever it is ended (signing out, a role change, a removal), every replica sees it at once,
and nothing a browser holds opens the API (a session is no bearer token, and no token is a session).

Two kinds of secret:
- a session (`WebSession`): a signed-in user; it ends after MEMORA_WEB_SESSION_IDLE_SECONDS without a page, and at the
  latest MEMORA_WEB_SESSION_MAX_SECONDS after it began;
- a sign-in key (`SignInKey`): a `link` is the one-time key of a sign-in link (`memora serve`, `memora signin-link`);
  used once, it becomes a `picker`, which lets the browser that used it choose a member until it ends (the local
  sign-in of a loopback install).
"""

from __future__ import annotations

import hashlib
import secrets
import time

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.settings import Settings

SECRET_BYTES = 32
RENEW_AFTER_SECONDS = 60.0
"""A session's end moves forward at most once a minute: a page read is not a write every time."""
SWEEP_BATCH = 1000

OPEN_SESSION = """
CREATE (:WebSession {key: $key, user_id: $user_id, created_at: $now, renewed_at: $now,
                     expires_at: $expires_at, ends_at: $ends_at})
"""
SESSION_OF = """
MATCH (s:WebSession {key: $key}) WHERE s.expires_at > $now
RETURN s.user_id AS user_id, s.renewed_at AS renewed_at
"""
RENEW_SESSION = """
MATCH (s:WebSession {key: $key}) WHERE s.expires_at > $now
SET s.renewed_at = $now, s.expires_at = CASE WHEN $now + $idle < s.ends_at THEN $now + $idle ELSE s.ends_at END
"""
END_SESSION = "MATCH (s:WebSession {key: $key}) DELETE s"
END_SESSIONS_OF = """
MATCH (s:WebSession {user_id: $user_id})
DELETE s
RETURN count(*) AS ended
"""
SWEEP_SESSIONS = """
MATCH (s:WebSession) WHERE s.expires_at <= $now
WITH s LIMIT $batch
DELETE s
"""
SWEEP_KEYS = """
MATCH (k:SignInKey) WHERE k.expires_at <= $now
WITH k LIMIT $batch
DELETE k
"""
ADD_LINK = "CREATE (:SignInKey {key: $key, kind: 'link', expires_at: $expires_at})"
# The key's lock is taken before its state is read, so two browsers opening one link cannot both become pickers.
USE_LINK = """
MATCH (k:SignInKey {key: $key, kind: 'link'})
SET k._lock = true
WITH k
WITH k, k.kind = 'link' AND k.expires_at > $now AS usable
SET k.key = CASE WHEN usable THEN $picker ELSE k.key END,
    k.kind = CASE WHEN usable THEN 'picker' ELSE k.kind END,
    k.expires_at = CASE WHEN usable THEN $expires_at ELSE k.expires_at END
REMOVE k._lock
RETURN usable
"""
PICKER = "MATCH (k:SignInKey {key: $key, kind: 'picker'}) WHERE k.expires_at > $now RETURN count(k) > 0 AS ok"


def new_secret() -> str:
    """43 URL-safe characters without a dot: neither a `mem1.` token nor a JWT, so never mistaken for one."""
    return secrets.token_urlsafe(SECRET_BYTES)


def key_of(secret: str) -> str:
    """What the graph keeps of a secret: its SHA-256, so a copy of the database opens no browser's sign-in."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def _now(now: float | None) -> float:
    return time.time() if now is None else now


def _sweep(graph: Graph, now: float) -> None:
    graph.write(SWEEP_SESSIONS, {"now": now, "batch": SWEEP_BATCH})
    graph.write(SWEEP_KEYS, {"now": now, "batch": SWEEP_BATCH})


def open_session(graph: Graph, settings: Settings, user_id: str, now: float | None = None) -> str:
    """A new session for `user_id`; the secret to hand the browser. Ended sessions and keys are swept first."""
    at = _now(now)
    _sweep(graph, at)
    secret = new_secret()
    ends = at + settings.web_session_max_seconds
    graph.write(
        OPEN_SESSION,
        {
            "key": key_of(secret),
            "user_id": user_id,
            "now": at,
            "expires_at": min(at + settings.web_session_idle_seconds, ends),
            "ends_at": ends,
        },
    )
    return secret


def session_user(graph: Graph, settings: Settings, secret: str, now: float | None = None) -> str | None:
    """The user a live session belongs to, renewing it; None for an unknown, ended or expired secret."""
    at = _now(now)
    key = key_of(secret)
    rows = graph.read(SESSION_OF, {"key": key, "now": at})
    if not rows:
        return None
    if at - float(rows[0]["renewed_at"]) >= RENEW_AFTER_SECONDS:
        graph.write(RENEW_SESSION, {"key": key, "now": at, "idle": settings.web_session_idle_seconds})
    return str(rows[0]["user_id"])


def end_session(graph: Graph, secret: str) -> None:
    graph.write(END_SESSION, {"key": key_of(secret)})


def end_sessions_in(tx: ManagedTransaction, user_id: str) -> int:
    """Sign `user_id` out of the web app everywhere, inside a membership change's transaction."""
    row = tx.run(END_SESSIONS_OF, user_id=user_id).single()
    return 0 if row is None else int(row["ended"])


def end_sessions_of(graph: Graph, user_id: str) -> int:
    return graph.transact(lambda tx: end_sessions_in(tx, user_id))


def add_link(graph: Graph, settings: Settings, now: float | None = None) -> str:
    """A one-time sign-in key, usable for MEMORA_WEB_SIGNIN_LINK_SECONDS: the secret of the link to print."""
    at = _now(now)
    _sweep(graph, at)
    secret = new_secret()
    graph.write(ADD_LINK, {"key": key_of(secret), "expires_at": at + settings.web_signin_link_seconds})
    return secret


def use_link(graph: Graph, settings: Settings, secret: str, now: float | None = None) -> str | None:
    """Spend a link's key: the secret of the member picker it becomes (for the browser that opened it), or None when
    the key is unknown, already used or expired."""
    at = _now(now)
    picker = new_secret()
    rows = graph.write(
        USE_LINK,
        {
            "key": key_of(secret),
            "now": at,
            "picker": key_of(picker),
            "expires_at": at + settings.web_session_max_seconds,
        },
    )
    return picker if rows and rows[0]["usable"] else None


def picker_allowed(graph: Graph, secret: str, now: float | None = None) -> bool:
    """Whether this secret is a live member picker (a link's key, used by this browser)."""
    return bool(graph.read(PICKER, {"key": key_of(secret), "now": _now(now)})[0]["ok"])
