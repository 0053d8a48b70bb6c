"""One cached plan per statement, whatever its parameter values.

Neo4j keys a cached plan by the statement's text *and* each parameter's type, with a size bucket for strings and
lists (0, 1, up to 10, up to 100, …) and null as a type of its own. The search statements are large (several KB)
and take one to three seconds to plan on a small machine, so a query with one candidate instead of twelve, a viewer
id of another length or a missing date would each pay that again: the slow first searches and the tail of the
latency distribution (docs/BENCHMARKS.md, "Plan cache and warm start"). Sent as one map, `$args`, the parameters
have one type, so a statement is planned once per server and every later call reuses that plan. Lookups like
`$args.id` still use the indexes: the planner treats a parameter's property as a constant of the query.

The rewrite reads the statement as Cypher tokens: text inside string literals, quoted names and comments is never
touched. A parameter the statement uses but the call lacks is refused here, as Neo4j would refuse it, rather than
read as null.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from neo4j import Session
from neo4j.exceptions import Neo4jError

log = logging.getLogger(__name__)

ARGS = "args"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class MissingParameters(ValueError):
    """A statement refers to parameters the call does not supply."""


def _rewrite(statement: str) -> tuple[str, frozenset[str]]:
    out: list[str] = []
    names: set[str] = set()
    i, n = 0, len(statement)
    while i < n:
        c = statement[i]
        if c in "'\"`":
            end = i + 1
            while end < n and statement[end] != c:
                end += 2 if statement[end] == "\\" and c != "`" else 1
            out.append(statement[i : end + 1])
            i = end + 1
        elif statement.startswith("//", i):
            end = statement.find("\n", i)
            end = n if end < 0 else end
            out.append(statement[i:end])
            i = end
        elif statement.startswith("/*", i):
            end = statement.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(statement[i:end])
            i = end
        elif c == "$" and (m := _NAME.match(statement, i + 1)):
            names.add(m.group())
            out.append(f"${ARGS}.{m.group()}")
            i = m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out), frozenset(names)


@lru_cache(maxsize=4096)
def rewritten(statement: str) -> tuple[str, frozenset[str]]:
    """The statement with every `$name` read from `$args`, and the names it reads (cached: statements are constants)."""
    if f"${ARGS}" in statement:
        raise ValueError(f"a statement cannot name its own parameter ${ARGS}: it is the one map every call sends")
    return _rewrite(statement)


def one_plan(statement: str, params: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """What to send for `statement` with `params` so that its cached plan never depends on their values."""
    text, names = rewritten(statement)
    given = dict(params or {})
    missing = names.difference(given)
    if missing:
        raise MissingParameters(f"the statement needs parameters {sorted(missing)} that the call does not give")
    return text, {ARGS: given}


def prepare(session: Session, statements: Iterable[str]) -> list[str]:
    """Plan each statement as `Graph.read` sends it (`EXPLAIN`: nothing runs, no data is read), so that its first
    call finds the costly part of planning done. Returns the statements Neo4j could not plan (logged: a warm-up
    never fails a start)."""
    refused: list[str] = []
    for statement in statements:
        try:
            session.run("EXPLAIN " + rewritten(statement)[0], {ARGS: {}}).consume()
        except Neo4jError as exc:
            log.warning("could not plan a statement ahead (%s): %.80s", exc.code, statement.strip())
            refused.append(statement)
    return refused
