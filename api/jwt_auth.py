"""JWTs from the application in front, verified with PyJWT: RS256/ES256 against the issuer's JWKS, or HS256 with a
shared secret. The algorithm is never chosen by the token: each key carries its own algorithm (the shared secret is
HS256, a JWKS key is what its type says), the header may only pick among them, and only algorithms on the configured
allow-list are tried. `alg: none` is refused before anything else.

The JWKS is cached (`MEMORA_AUTH_JWKS_LIFESPAN_SECONDS`); an unknown `kid` (a key rotation) or a failed fetch leads
to at most one fetch per `MEMORA_AUTH_JWKS_REFETCH_SECONDS`, each bounded by `MEMORA_AUTH_JWKS_TIMEOUT_SECONDS`, so a
stream of made-up `kid`s never turns into a stream of requests to the issuer, and an issuer that is down costs each
request at most one timeout. While the issuer is down, keys already fetched keep working.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jwt
from jwt import PyJWK, PyJWKClient

from api.auth import PREFIX, WITNESS_PREFIX, TokenError
from graph.settings import Settings

ASYMMETRIC = ("RS256", "ES256")
SUPPORTED = (*ASYMMETRIC, "HS256")
MIN_SECRET_BYTES = 32
MAX_USER_ID = 200
_JWT_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")


class JwtConfigError(ValueError):
    """The MEMORA_AUTH_* settings do not make a usable verifier (said at startup, never per request)."""


class IssuerUnavailable(RuntimeError):
    """The JWKS could not be fetched (or was unusable) and no cached key fits: 503, not the caller's fault."""


def looks_like_jwt(token: str) -> bool:
    """Three base64url parts (the last may be empty: `alg: none`), and not a development token or witness link."""
    return bool(_JWT_SHAPE.fullmatch(token)) and token.split(".", 1)[0] not in (PREFIX, WITNESS_PREFIX)


class JwksCache:
    """The issuer's signing keys by `kid`, fetched through PyJWT's `PyJWKClient` (its own cache off: this one decides
    when to fetch). One lock: while one request fetches, others wait at most that fetch's timeout and then use its
    result, or fail fast without fetching again."""

    def __init__(
        self,
        url: str,
        algorithms: tuple[str, ...],
        timeout: float,
        lifespan: float,
        refetch: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = PyJWKClient(url, cache_jwk_set=False, timeout=timeout)
        self.algorithms = algorithms
        self.lifespan = lifespan
        self.refetch = refetch
        self.clock = clock
        self._lock = threading.Lock()
        self._keys: dict[str, PyJWK] = {}
        self._fetched_at: float | None = None  # last successful fetch
        self._tried_at: float | None = None  # last attempt, successful or not
        self._failure: str | None = None  # why the last attempt failed, if it did

    def key(self, kid: str) -> PyJWK:
        with self._lock:
            now = self.clock()
            known = self._keys.get(kid)
            fresh = self._fetched_at is not None and now - self._fetched_at < self.lifespan
            if known is not None and fresh:
                return known
            may_fetch = self._tried_at is None or now - self._tried_at >= self.refetch
            if may_fetch:
                self._fetch(now)
                known = self._keys.get(kid)
            if known is not None:
                return known  # possibly stale: an issuer that is down does not log everyone out
            if self._failure is not None:
                raise IssuerUnavailable(f"the issuer's key set is unavailable ({self._failure}); retry later")
            raise TokenError("unknown signing key (kid)")

    def _fetch(self, now: float) -> None:
        self._tried_at = now
        try:
            jwk_set = self.client.get_jwk_set(refresh=True)
        except jwt.PyJWKClientConnectionError:
            self._failure = "unreachable"
            return
        except jwt.PyJWTError:
            self._failure = "no usable signing keys"
            return
        keys = {
            k.key_id: k
            for k in jwk_set.keys
            if k.key_id and k.public_key_use in ("sig", None) and k.algorithm_name in self.algorithms
        }
        if not keys:
            self._failure = "no usable signing keys"
            return
        self._keys, self._fetched_at, self._failure = keys, self.clock(), None


@dataclass(frozen=True)
class _Rules:
    issuer: str
    audience: str
    user_claim: str
    leeway: int


class JwtVerifier:
    """Built once per app from the settings; `verify` gives the user id of a valid JWT or raises `TokenError`."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic) -> None:
        allowed = [a.strip() for a in settings.auth_algorithms.split(",") if a.strip()]
        unknown = [a for a in allowed if a not in SUPPORTED]
        if unknown:
            raise JwtConfigError(
                f"MEMORA_AUTH_ALGORITHMS: {', '.join(unknown)} not supported (choose among {', '.join(SUPPORTED)})"
            )
        if not settings.auth_issuer or not settings.auth_audience:
            raise JwtConfigError("MEMORA_AUTH_ISSUER and MEMORA_AUTH_AUDIENCE are required to accept JWTs")
        if not settings.auth_user_claim:
            raise JwtConfigError("MEMORA_AUTH_USER_CLAIM must name a claim")
        secret = settings.auth_hs256_secret
        if secret is not None and len(secret.encode()) < MIN_SECRET_BYTES:
            raise JwtConfigError(f"MEMORA_AUTH_HS256_SECRET must be at least {MIN_SECRET_BYTES} bytes")
        self.secret = secret if "HS256" in allowed else None
        asymmetric = tuple(a for a in ASYMMETRIC if a in allowed)
        url = settings.auth_jwks_url
        if url and not url.lower().startswith(("http://", "https://")):
            raise JwtConfigError("MEMORA_AUTH_JWKS_URL must be an http:// or https:// URL")
        self.jwks = (
            JwksCache(
                url,
                asymmetric,
                settings.auth_jwks_timeout_seconds,
                settings.auth_jwks_lifespan_seconds,
                settings.auth_jwks_refetch_seconds,
                clock,
            )
            if url and asymmetric
            else None
        )
        self.algorithms = (asymmetric if self.jwks else ()) + (("HS256",) if self.secret else ())
        if not self.algorithms:
            raise JwtConfigError(
                "no JWT algorithm is usable: MEMORA_AUTH_ALGORITHMS needs RS256/ES256 with "
                "MEMORA_AUTH_JWKS_URL, or HS256 with MEMORA_AUTH_HS256_SECRET"
            )
        self.rules = _Rules(
            settings.auth_issuer, settings.auth_audience, settings.auth_user_claim, settings.auth_leeway_seconds
        )

    @staticmethod
    def configured(settings: Settings) -> bool:
        return bool(settings.auth_jwks_url or settings.auth_hs256_secret)

    def verify(self, token: str) -> str:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise TokenError("malformed JWT") from exc
        alg = header.get("alg")
        if not isinstance(alg, str) or alg.lower() == "none":
            raise TokenError("unsigned JWTs (alg none) are refused")
        if alg not in self.algorithms:
            raise TokenError(f"JWT algorithm not accepted (accepted: {', '.join(self.algorithms)})")
        key: Any
        if alg == "HS256":
            key = self.secret
        else:
            kid = header.get("kid")
            if not isinstance(kid, str) or not kid:
                raise TokenError("JWT has no key id (kid)")
            assert self.jwks is not None  # alg is in self.algorithms
            jwk = self.jwks.key(kid)
            if jwk.algorithm_name != alg:
                raise TokenError(f"JWT algorithm {alg} does not match its key ({jwk.algorithm_name})")
            key = jwk.key
        return self._claims(token, key, alg)

    def _claims(self, token: str, key: Any, alg: str) -> str:
        r = self.rules
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[alg],
                audience=r.audience,
                issuer=r.issuer,
                leeway=r.leeway,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise TokenError("token expired") from exc
        except jwt.ImmatureSignatureError as exc:
            raise TokenError("token not yet valid (nbf)") from exc
        except jwt.InvalidAudienceError as exc:
            raise TokenError("JWT audience is not this service") from exc
        except jwt.InvalidIssuerError as exc:
            raise TokenError("JWT issuer is not the configured one") from exc
        except jwt.MissingRequiredClaimError as exc:
            raise TokenError(f"JWT lacks the '{exc.claim}' claim") from exc
        except jwt.InvalidSignatureError as exc:
            raise TokenError("bad signature") from exc
        except jwt.PyJWTError as exc:
            raise TokenError("invalid JWT") from exc
        user = claims.get(r.user_claim)
        if not isinstance(user, str) or not user or len(user) > MAX_USER_ID:
            raise TokenError(f"JWT has no usable '{r.user_claim}' claim (a user id of 1..{MAX_USER_ID} characters)")
        return user


def verifier_for(settings: Settings) -> JwtVerifier | None:
    """The app's verifier, or None when JWTs are not configured (then a JWT is refused like any bad token)."""
    return JwtVerifier(settings) if JwtVerifier.configured(settings) else None
