"""What an action refuses, in its own words: every door answers these as the API does (api/errors.py `as_http`: 401,
403, 404, 409, 422 in the body's error shape), the web as an error page or the form again, MCP as the tool's
refusal."""

from __future__ import annotations

from typing import Any, Literal

Why = Literal["not_member", "reader", "not_author", "not_owner"]


class Refused(Exception):
    """`detail` is what the caller is told: a sentence, or the fields at fault as the API's 422 lists them."""

    def __init__(self, detail: str | list[dict[str, Any]]) -> None:
        super().__init__(detail if isinstance(detail, str) else "; ".join(str(d.get("msg", "")) for d in detail))
        self.detail = detail


class NotFound(Refused):
    """Missing, or hidden from the caller: the two read the same."""


class NotAuthenticated(Refused):
    """A witness link that opens nothing now: malformed, forged, expired or revoked. Each door counts it as a failed
    authentication of the address."""


class NotAllowed(Refused):
    """The caller's role does not allow it. `reason` says how (a non-member, a reader, not the entry's author, not the
    owner) for a door that words its refusal itself, the web's pages; the API's answer is `detail` alone."""

    def __init__(self, detail: str, reason: Why | None = None) -> None:
        super().__init__(detail)
        self.reason = reason


class AlreadyExists(Refused):
    """An entry with this id exists (of two concurrent creates, the second)."""


class Conflict(Refused):
    """What was asked contradicts what is stored (a merge of two kinds, or of an entity into itself)."""


class Invalid(Refused):
    """What was sent cannot be stored as it is: `detail` lists the fields (`loc`, `msg`, `type`)."""
