"""What `memora serve`'s access log (uvicorn's `uvicorn.access` logger) may keep of a request's path: never a
credential, never what someone searched for.

A witness link is a credential in the path (`/w/{token}`, `/v1/w/{token}/...`, valid up to a year), and the web
pages carry questions, names and themes in the query (`?q=`, `?name=`, `?theme=`), which the retrieval log keeps only
as a keyed hash. The `Redact` filter rewrites the path argument of each access record before any handler formats it:

- a path segment that looks like a token (a witness link `wit1.…`, a development token `mem1.…`, a JWT, or a long
  random id) becomes `[redacted]`;
- a query value is kept only for the keys in `KEPT` (numbers and choices: year, month, page, sort, ...) and only
  while it is short and not token-like; every other value becomes `[redacted]`, and so does a key not shaped like
  one (the key names are kept, so a log still tells which page was asked for and how).

`log_config()` is uvicorn's logging configuration with the filter on the access logger; `memora serve` runs with it.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any
from urllib.parse import unquote

from uvicorn.config import LOGGING_CONFIG

REDACTED = "[redacted]"
KEPT = frozenset(
    {
        "budget",
        "draft",
        "dry_run",
        "error",
        "factor",
        "forget",
        "k",
        "kind",
        "lang",
        "limit",
        "measure",
        "month",
        "own",
        "page",
        "resolution",
        "sort",
        "time",
        "wait",
        "year",
    }
)
"""Query keys whose values are kept: numbers, flags and choices among a few words, never free text."""
KEPT_VALUE_MAX = 32
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,39}")
_TOKEN_PREFIXES = ("wit1.", "mem1.")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
_RANDOM = re.compile(r"[A-Za-z0-9_-]{32,}")
_HEX = re.compile(r"[0-9a-fA-F-]{32,}")
PATH_ARG = 2
"""The request target's place in uvicorn's access record: (client, method, path?query, http version, status)."""


def looks_like_token(segment: str) -> bool:
    """A witness link, a development token, a JWT, or a long random id (base64url with upper and lower case and
    digits, or hex): what a credential in a URL looks like, and what a name people chose rarely does."""
    text = unquote(segment)
    if text.lower().startswith(_TOKEN_PREFIXES) or _JWT.fullmatch(text):
        return True
    if _HEX.fullmatch(text) and sum(c.isdigit() for c in text) >= 8:
        return True
    return bool(_RANDOM.fullmatch(text)) and all(
        any(test(c) for c in text) for test in (str.isupper, str.islower, str.isdigit)
    )


def redact_target(target: str) -> str:
    """The request target (path and query, as uvicorn logs it) with tokens and free text replaced."""
    path, sep, query = target.partition("?")
    path = "/".join(REDACTED if looks_like_token(s) else s for s in path.split("/"))
    if not sep:
        return path
    return f"{path}?{'&'.join(_redact_pair(p) for p in query.split('&'))}"


def _redact_pair(pair: str) -> str:
    key, sep, value = pair.partition("=")
    if not _KEY.fullmatch(key) or looks_like_token(key):
        return f"{REDACTED}={REDACTED}" if sep else REDACTED
    if not sep or not value:
        return pair
    keep = key in KEPT and len(value) <= KEPT_VALUE_MAX and not looks_like_token(value)
    return f"{key}={value if keep else REDACTED}"


class Redact(logging.Filter):
    """Rewrites an access record's request target before it is formatted (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        target = args[PATH_ARG] if isinstance(args, tuple) and len(args) > PATH_ARG else None
        if isinstance(args, tuple) and isinstance(target, str):
            record.args = (*args[:PATH_ARG], redact_target(target), *args[PATH_ARG + 1 :])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration, with `Redact` on the `uvicorn.access` logger."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact"] = {"()": f"{__name__}.Redact"}
    config["loggers"]["uvicorn.access"]["filters"] = ["redact"]
    return config
