"""The settings the api layer reads to decide who may call and how often: tokens, JWTs, host names, the local
sign-in and the rate limits."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AuthSettings(BaseModel):
    """Who may call the service, and how often: development tokens and witness links, JWTs from the application in
    front, the host names served, the local sign-in and the rate limits per caller."""

    secret: str | None = Field(
        default=None, description="HMAC secret for bearer tokens; generated under home if unset."
    )
    secret_previous: str | None = Field(default=None, description="Still accepted while tokens signed with it expire.")
    token_ttl_seconds: int = 30 * 24 * 3600

    # JWTs from the application in front (api/jwt_auth.py); off unless a JWKS URL or an HS256 secret is set.
    auth_issuer: str | None = Field(default=None, description="Required `iss` of a JWT (exact match).")
    auth_audience: str | None = Field(default=None, description="Required `aud` of a JWT (this service's name).")
    auth_jwks_url: str | None = Field(
        default=None, description="The issuer's JWKS (http/https): RS256/ES256 keys, looked up by `kid`."
    )
    auth_user_claim: str = Field(default="sub", description="The JWT claim that holds the user id.")
    auth_hs256_secret: str | None = Field(
        default=None, description="Shared secret (at least 32 bytes) for HS256 JWTs; never MEMORA_SECRET."
    )
    auth_algorithms: str = Field(
        default="RS256,ES256,HS256",
        description="JWT algorithms accepted (comma-separated, among RS256, ES256, HS256), whatever a token says; "
        "RS256/ES256 need the JWKS URL, HS256 the shared secret.",
    )
    auth_jwks_timeout_seconds: float = Field(default=3.0, gt=0, description="One JWKS fetch gives up after this.")
    auth_jwks_lifespan_seconds: float = Field(
        default=300.0, gt=0, description="The key set is fetched again when older than this."
    )
    auth_jwks_refetch_seconds: float = Field(
        default=30.0,
        ge=0,
        description="At most one fetch per this many seconds for an unknown `kid` or after a failed fetch.",
    )
    auth_leeway_seconds: int = Field(default=30, ge=0, description="Clock skew allowed on `exp` and `nbf`.")

    web_dev_signin: bool = Field(
        default=True,
        description="On a service bound to a loopback address, a browser on this machine that opened a one-time "
        "sign-in link (printed by `memora serve` and `memora signin-link`) may choose a member of a project without a "
        "token, for local use; off, on any other bind or from any other address, only a token (`memora token`, or a "
        "JWT from the identity provider) signs in.",
    )
    allowed_hosts: str = Field(
        default="localhost,127.0.0.1,::1",
        description="Comma-separated host names the service answers to (the `Host` header, port aside); any other "
        "name is refused with 421, so a page whose name was rebound to this machine's address cannot read it. "
        "`*.example.org` admits that domain's subdomains, `*` every name. An address (127.0.0.1, 10.0.0.5) is "
        "always admitted: no page can be served under another site's name through it.",
    )

    # Rate limits per caller (api/ratelimit.py), in process; 0 turns a limit off.
    rate_search_per_second: float = Field(
        default=10.0, ge=0, description="Searches per second per user (or witness link), after a burst."
    )
    rate_search_burst: int = Field(default=30, ge=0, description="Searches a caller may make at once.")
    rate_write_per_second: float = Field(
        default=5.0, ge=0, description="Entry and entity writes per second per user (or witness link), after a burst."
    )
    rate_write_burst: int = Field(default=20, ge=0, description="Writes a caller may make at once.")
    rate_read_per_second: float = Field(
        default=2.0,
        ge=0,
        description="Expensive reads per second per user (periods, summary, analytics, candidates, entry listings, "
        "neighbours, and the web's chapter, people, entity and timeline pages), after a burst.",
    )
    rate_read_burst: int = Field(default=30, ge=0, description="Expensive reads a caller may make at once.")
    rate_auth_failures_per_minute: int = Field(
        default=60,
        ge=0,
        description="Invalid or expired tokens and witness links per client address per minute; past it, every "
        "request from the address is refused (429) until the budget refills.",
    )

    @property
    def host_names(self) -> tuple[str, ...]:
        """MEMORA_ALLOWED_HOSTS as lower-case names, brackets of an IPv6 address dropped."""
        names = (h.strip().strip("[]").lower().rstrip(".") for h in self.allowed_hosts.split(","))
        return tuple(h for h in names if h)
