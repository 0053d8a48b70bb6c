"""Signed bearer tokens (HMAC-SHA256, with expiry). A token names a user, never a role: roles come from the graph."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time

from graph.local_secret import read_or_create
from graph.settings import Settings

PREFIX = "mem1"
WITNESS_PREFIX = "wit1"


class TokenError(ValueError):
    """Missing, malformed, forged or expired token."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def secret_of(settings: Settings) -> str:
    """MEMORA_SECRET, or a random secret generated once under MEMORA_HOME (mode 0600) for development."""
    if settings.secret:
        return settings.secret
    return read_or_create(settings.home / "secret")


def _sign(secret: str, payload: str) -> str:
    return _b64(hmac.new(secret.encode(), payload.encode(), hashlib.sha256).digest())


def issue(
    settings: Settings, user_id: str, ttl_seconds: int | None = None, now: float | None = None, prefix: str = PREFIX
) -> str:
    if not user_id or len(user_id) > 200:
        raise TokenError("a token needs a user id of 1..200 characters")
    issued = int(now if now is not None else time.time())
    ttl = settings.token_ttl_seconds if ttl_seconds is None else ttl_seconds
    body = {"sub": user_id, "iat": issued, "exp": issued + ttl}
    payload = _b64(json.dumps(body, separators=(",", ":")).encode())
    return f"{prefix}.{payload}.{_sign(secret_of(settings), prefix + payload)}"


def issue_witness(settings: Settings, grant_id: str, ttl_seconds: int) -> str:
    """A link token naming a witness grant; the grant in the graph decides whether it still opens anything."""
    return issue(settings, grant_id, ttl_seconds, prefix=WITNESS_PREFIX)


def verify_witness(settings: Settings, token: str, now: float | None = None) -> str:
    return verify(settings, token, now, prefix=WITNESS_PREFIX)


def verify(settings: Settings, token: str, now: float | None = None, prefix: str = PREFIX) -> str:
    """The id named by a valid token; the previous secret is still accepted during a rotation. The prefix is part
    of what is signed, so a witness link can never pass for a user token."""
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != prefix:
        raise TokenError("malformed token")
    payload, signature = parts[1], parts[2]
    secrets_ok = [secret_of(settings)] + ([settings.secret_previous] if settings.secret_previous else [])
    if not any(
        hmac.compare_digest(_sign(s, prefix + payload).encode(), signature.encode("utf-8", "replace"))
        for s in secrets_ok
    ):
        raise TokenError("bad signature")
    try:
        body = json.loads(_unb64(payload))
        user_id, expires = str(body["sub"]), int(body["exp"])
    except (ValueError, KeyError, TypeError) as exc:
        raise TokenError("malformed token") from exc
    if expires < (now if now is not None else time.time()):
        raise TokenError("token expired")
    return user_id
