"""Entity vectors per audience: a person, place, thing or chapter as the mean of the entries that name it.

An entry's vector is the mean of its chunk vectors (the active model); an entity's is the normalised mean of its
entries' vectors, taken separately for each audience `can_see` distinguishes, so an entry a viewer may not see never
moves the vector that viewer gets. Within a project, a member sees the circle and public entries, their own private
and intimate ones, and every intimate one when owner or coauthor. That gives at most these variants per entity:

* `shared`: circle + public entries (every member);
* `inner`: shared + every intimate entry (owners and coauthors without private entries about it);
* `reader` of user U: shared + U's intimate + U's private entries (U as a reader, when U wrote any of those);
* `writer` of user U: inner + U's private entries (U as owner or coauthor, when U wrote private ones).

The query (`queries/entities/similar.py`) picks, inside Cypher, the one variant the viewer's current role and id
select, so a
role change takes effect at once. Variants are rebuilt when an entity's sources change (a signature of its entries'
ids, levels, authors, update times, the names they mention it by and embedded chunk counts): by the background
worker, by `memora entity refresh`, or on demand. A write that changes or deletes an entry drops, in the same
transaction, the variants whose audience could see the entry as it was (`DROP_AFFECTED_VARIANTS`), so a vector
never keeps an entry its readers may no longer see, and variants of audiences that could not see it stay exactly as
they were. A rebuild bumps the search generations (graph/generations.py) of exactly the audiences whose variant it
changed and who read that variant now (a user's own variant: only the one their current role picks), so a viewer's
cached `similar` answers and name lookups follow it and nobody else's move.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
from neo4j import ManagedTransaction

from graph import generations
from graph.db import Graph
from graph.ids import sha256
from graph.periods import shown_name
from graph.schema import vector_property
from graph.textnorm import fold
from graph.visibility import EDGE_ROLES, STRONGEST_ROLE

log = logging.getLogger(__name__)

LABELS = {"person": "Person", "place": "Place", "thing": "Thing", "period": "Period"}
BATCH = 200

# Variants whose audience could see entry `e` (before a write changes it): bound `e`, yields `stale`.
# The target's signature is cleared with them: once the entry is gone its sources may be those of the last refresh
# again (an entry written and deleted in between), and the refresh must still rebuild what was dropped.
DROP_AFFECTED_VARIANTS = """
OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(target)<-[:VECTOR_OF]-(stale:EntityVector)
WHERE e.intimacy IN ['circle', 'public']
   OR (e.intimacy = 'intimate' AND (stale.audience IN ['inner', 'writer'] OR stale.user_id = e.author_id))
   OR (e.intimacy = 'private' AND stale.user_id = e.author_id)
SET target.vectors_signature = null
DETACH DELETE stale
"""

_SOURCES = """
MATCH (x:{label}) WHERE x.project_id = $project_id{declared}
RETURN x.id AS id, '{kind}' AS kind, x.vectors_signature AS stored,
       COLLECT {{ MATCH (e:Entry)-[m:{rel}]->(x)
                 RETURN e.id + '|' + coalesce(e.intimacy, '') + '|' + coalesce(e.author_id, '') + '|'
                        + toString(e.updated_at) + '|' + coalesce({name}, '') + '|'
                        + toString(COUNT {{ MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL }}) }} AS parts
"""
# The name an entry gives a target: a mention's linked name, a chapter's spelling in the entry (graph/periods.py),
# so a variant is named only by its own audience's entries. An automatic chapter (a month, a session) has no vector:
# it would answer "similar to Pep" with dates.
NAME_IN_ENTRY = {kind: shown_name("e", "x") if kind == "period" else "m.name" for kind in LABELS}
SOURCES = {
    kind: _SOURCES.format(
        label=label,
        kind=kind,
        rel="IN_PERIOD" if kind == "period" else "MENTIONS",
        name=NAME_IN_ENTRY[kind],
        declared=" AND x.automatic IS NULL" if kind == "period" else "",
    )
    for kind, label in LABELS.items()
}

_CONTRIBUTIONS = """
UNWIND $ids AS xid
MATCH (e:Entry)-[m:{rel}]->(x:{label} {{id: xid}})
RETURN xid AS id, e.id AS entry_id, e.intimacy AS intimacy, e.author_id AS author_id, {name} AS name
ORDER BY id, entry_id
"""
CONTRIBUTIONS = {
    kind: _CONTRIBUTIONS.format(
        label=label,
        rel="IN_PERIOD" if kind == "period" else "MENTIONS",
        name=f"coalesce({NAME_IN_ENTRY[kind]}, x.name)",
    )
    for kind, label in LABELS.items()
}

ENTRY_VECTORS = """
UNWIND $ids AS id
MATCH (c:Chunk {entry_id: id}) WHERE c[$prop] IS NOT NULL
WITH id, c ORDER BY c.ord
RETURN id, collect(c[$prop]) AS vectors
"""

_REPLACE = """
UNWIND $targets AS t
MATCH (x:{label} {{id: t.id}})
OPTIONAL MATCH (old:EntityVector)-[:VECTOR_OF]->(x)
DETACH DELETE old
WITH DISTINCT x, t
SET x.vectors_signature = t.signature
WITH x, t
UNWIND t.variants AS v
CREATE (n:EntityVector {{id: v.id, project_id: x.project_id, entity_id: x.id, kind: t.kind, model: $model,
                         audience: v.audience, user_id: v.user_id, entries: v.entries, vector: v.vector,
                         name: v.name, keys: v.keys}})
CREATE (n)-[:VECTOR_OF]->(x)
"""
REPLACE = {kind: _REPLACE.format(label=label) for kind, label in LABELS.items()}

# The variants a rebuild replaces, to tell which audiences it changes.
_OLD_VARIANTS = """
UNWIND $ids AS xid
MATCH (v:EntityVector)-[:VECTOR_OF]->(:{label} {{id: xid}})
RETURN v.id AS id, v.audience AS audience, v.user_id AS user_id, v.entries AS entries, v.vector AS vector,
       v.name AS name, v.keys AS keys
"""
OLD_VARIANTS = {kind: _OLD_VARIANTS.format(label=label) for kind, label in LABELS.items()}

# Variants of entities deleted since (their VECTOR_OF went with them).
DROP_ORPHANS = """
MATCH (v:EntityVector {project_id: $project_id})
WHERE NOT EXISTS { MATCH (v)-[:VECTOR_OF]->() }
WITH v, v.audience AS audience, v.user_id AS user_id
DETACH DELETE v
RETURN DISTINCT audience, user_id
"""

PROJECTS = "MATCH (p:Project) RETURN p.id AS id ORDER BY id"
# Every search generation of every project (graph/generations.py): each write that can change an entity's sources
# (entries, levels, mentions, vectors stored, entity edits, merges) bumps at least one of them.
PROJECT_GENERATIONS = """
MATCH (p:Project) WHERE $project_id IS NULL OR p.id = $project_id
RETURN p.id AS id, [k IN keys(p) WHERE k STARTS WITH 'search_generation' | k + '=' + toString(p[k])] AS generations
ORDER BY id
"""


@dataclass(frozen=True)
class RefreshStats:
    project_id: str
    targets: int  # entities and chapters looked at
    rebuilt: int  # of which had changed and were rebuilt
    variants: int  # variants written
    bumped: dict[str, int] = field(default_factory=dict)  # search generations this refresh bumped, and how often


SIGNATURE_VERSION = "2"  # bumped when what a variant holds changes, so every entity is rebuilt once


def _signature(slug: str, parts: list[str]) -> str:
    return sha256(SIGNATURE_VERSION, slug, *sorted(parts))


def _entry_vectors(graph: Graph, prop: str, ids: list[str]) -> dict[str, np.ndarray]:
    """Each entry's unit mean chunk vector; entries without any vector yet are left out (they count later)."""
    out: dict[str, np.ndarray] = {}
    for start in range(0, len(ids), 1000):
        for r in graph.read(ENTRY_VECTORS, {"ids": ids[start : start + 1000], "prop": prop}):
            mean = np.asarray(r["vectors"], dtype=np.float64).mean(axis=0)
            norm = float(np.linalg.norm(mean))
            if norm > 0:
                out[r["id"]] = mean / norm
    return out


Row = tuple[str, str | None, str | None, str | None]  # entry id, intimacy, author, the name it mentions


def variants(target_id: str, slug: str, rows: list[Row], vectors: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    """The audience variants of one target from its rows, summed in entry-id order so an unchanged audience always
    gets the very same floats. Each variant also keeps the names its audience's entries mention the target by: the
    smallest (the name `display_name` gives that audience) and all of them folded (to find it in a question)."""
    dims = next(iter(vectors.values())).shape[0] if vectors else 0
    zero = np.zeros(dims)
    shared: list[Row] = []
    intimate: dict[str, list[Row]] = defaultdict(list)  # author ('' when unknown) -> rows
    private: dict[str, list[Row]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: r[0]):
        _, intimacy, author, _ = row
        if intimacy in ("circle", "public"):
            shared.append(row)
        elif intimacy == "intimate":
            intimate[author or ""].append(row)
        elif intimacy == "private" and author:
            private[author].append(row)

    def total(group: list[Row]) -> tuple[np.ndarray, int]:
        acc = zero.copy()
        embedded = [r[0] for r in group if r[0] in vectors]
        for i in embedded:
            acc = acc + vectors[i]
        return acc, len(embedded)

    s_sum, s_n = total(shared)
    i_parts = {a: total(group) for a, group in sorted(intimate.items())}
    p_parts = {a: total(group) for a, group in sorted(private.items())}
    i_sum, i_n = zero.copy(), 0
    for part, n in i_parts.values():
        i_sum, i_n = i_sum + part, i_n + n
    out: list[dict[str, Any]] = []

    def add(audience: str, user: str | None, acc: np.ndarray, n: int, groups: list[list[Row]]) -> None:
        norm = float(np.linalg.norm(acc))
        names = sorted({r[3] for g in groups for r in g if r[3]})
        if n and norm > 0:
            out.append(
                {
                    "id": sha256(target_id, slug, audience, user or "")[:40],
                    "audience": audience,
                    "user_id": user,
                    "entries": n,
                    "vector": [float(x) for x in acc / norm],
                    "name": names[0] if names else None,
                    "keys": sorted({fold(x) for x in names}),
                }
            )

    every_intimate = [g for _, g in sorted(intimate.items())]
    add("shared", None, s_sum, s_n, [shared])
    if i_n:
        add("inner", None, s_sum + i_sum, s_n + i_n, [shared, *every_intimate])
    for user in sorted({a for a in i_parts if a} | set(p_parts)):
        own_i, own_in = i_parts.get(user, (zero, 0))
        own_p, own_pn = p_parts.get(user, (zero, 0))
        own = [intimate.get(user, []), private.get(user, [])]
        add("reader", user, s_sum + own_i + own_p, s_n + own_in + own_pn, [shared, *own])
        if own_pn:
            add(
                "writer",
                user,
                s_sum + i_sum + own_p,
                s_n + i_n + own_pn,
                [shared, *every_intimate, private.get(user, [])],
            )
    return out


def refresh_project(graph: Graph, project_id: str, slug: str, force: bool = False) -> RefreshStats:
    """Rebuild the variants of the project's entities and chapters whose sources changed (all of them with
    `force`); unchanged ones are not touched."""
    prop = vector_property(slug)
    changed: dict[str, list[tuple[str, str]]] = defaultdict(list)  # kind -> [(id, signature)]
    targets = 0
    for kind, statement in SOURCES.items():
        for r in graph.read(statement, {"project_id": project_id, "prop": prop}):
            targets += 1
            signature = _signature(slug, list(r["parts"]))
            if force or signature != r["stored"]:
                changed[kind].append((r["id"], signature))
    rebuilt = written = 0
    bumped: dict[str, int] = {}
    for kind, items in changed.items():
        for start in range(0, len(items), BATCH):
            batch = items[start : start + BATCH]
            rows: dict[str, list[Row]] = defaultdict(list)
            for r in graph.read(CONTRIBUTIONS[kind], {"ids": [i for i, _ in batch]}):
                rows[r["id"]].append((r["entry_id"], r["intimacy"], r["author_id"], r["name"]))
            vectors = _entry_vectors(graph, prop, sorted({r[0] for rs in rows.values() for r in rs}))
            payload: list[dict[str, Any]] = []
            for target_id, signature in batch:
                found = variants(target_id, slug, rows.get(target_id, []), vectors)
                payload.append({"id": target_id, "kind": kind, "signature": signature, "variants": found})
                written += len(found)
            moved = graph.transact(partial(_replace, kind=kind, payload=payload, slug=slug, project_id=project_id))
            bumped.update({k: bumped.get(k, 0) + 1 for k in moved})
            rebuilt += len(batch)
    orphaned = graph.transact(partial(_drop_orphans, project_id=project_id))
    bumped.update({k: bumped.get(k, 0) + 1 for k in orphaned})
    return RefreshStats(project_id, targets, rebuilt, written, bumped)


def _replace(tx: ManagedTransaction, kind: str, payload: list[dict[str, Any]], slug: str, project_id: str) -> set[str]:
    """New variants, and the bump of the audiences whose variant they change, in one transaction: the variants
    compared are those readers could see until this commit (a write meanwhile may have dropped some)."""
    old = {r["id"]: dict(r) for r in tx.run(OLD_VARIANTS[kind], ids=[t["id"] for t in payload])}
    new: dict[str, dict[str, Any]] = {v["id"]: v for t in payload for v in t["variants"]}
    tx.run(REPLACE[kind], targets=payload, model=slug).consume()
    changed = [v for i, v in [*old.items(), *new.items()] if _differs(old.get(i), new.get(i))]
    return _bump_audiences(tx, project_id, changed)


def _drop_orphans(tx: ManagedTransaction, project_id: str) -> set[str]:
    return _bump_audiences(tx, project_id, [dict(r) for r in tx.run(DROP_ORPHANS, project_id=project_id)])


# The role of each user whose own variant changed, read in the bumping transaction.
ROLES = f"""
UNWIND $users AS uid
OPTIONAL MATCH (:User {{id: uid}})-[m:MEMBER_OF]->(:Project {{id: $project_id}})
WITH uid, {EDGE_ROLES} AS roles
RETURN uid, {STRONGEST_ROLE} AS role
"""


def _bump_audiences(tx: ManagedTransaction, project_id: str, changed: list[dict[str, Any]]) -> set[str]:
    """Bump the generation of each audience a changed variant serves, and only of a user who reads that variant
    now: a `writer` variant serves its user as owner or coauthor, a `reader` variant as a reader. A user demoted
    to reader keeps a `writer` variant (built from intimate entries they may no longer see): bumping their key
    when a hidden intimate entry changes it would tell them, by a cache miss, that it was written."""
    users = sorted({v["user_id"] for v in changed if v["audience"] in ("writer", "reader") and v.get("user_id")})
    roles = {r["uid"]: r["role"] for r in tx.run(ROLES, users=users, project_id=project_id)} if users else {}
    keys: set[str] = set()
    for v in changed:
        if v["audience"] == "shared":
            keys.add(generations.ALL)
        elif v["audience"] == "inner":
            keys.add(generations.INNER)
        elif roles.get(v.get("user_id")) is not None and (roles[v["user_id"]] in ("owner", "coauthor")) == (
            v["audience"] == "writer"
        ):
            keys.add(generations.own_key(v["user_id"]))
    generations.bump_keys_in(tx, project_id, keys, entry_ids=[], entity_ids=[])  # no entry, mention nor name
    return keys


def _differs(old: dict[str, Any] | None, new: dict[str, Any] | None) -> bool:
    if old is None or new is None:
        return old is not new
    return any(old[k] != new[k] for k in ("entries", "vector", "name", "keys"))


def refresh_all(graph: Graph, slug: str, project_id: str | None = None, force: bool = False) -> list[RefreshStats]:
    """`refresh_project` for one project, or for every project."""
    projects = [project_id] if project_id else [r["id"] for r in graph.read(PROJECTS)]
    return [refresh_project(graph, p, slug, force) for p in projects]


def _moved_by(stored: list[str], bumped: dict[str, int]) -> list[str]:
    """`key=value` generations as they read after `bumped` alone moved them."""
    values = {k: int(v) for k, v in (g.split("=", 1) for g in stored)}
    for key, n in bumped.items():
        values[key] = values.get(key, 0) + n
    return sorted(f"{k}={v}" for k, v in values.items())


class VectorWorker:
    """Background thread of `serve`: every `interval` seconds, rebuilds what changed in every project.

    Reading every entity's sources costs about as much as the project is large, so a round looks only at projects
    whose search generations (or the active model) moved since this worker last refreshed them; every
    `full_sweep_seconds` it checks every project anyway, a backstop for a write that bumped nothing."""

    def __init__(self, graph: Graph, slug: Any, interval: float, full_sweep_seconds: float = 600.0) -> None:
        self.graph, self.slug, self.interval = graph, slug, interval
        self.full_sweep_seconds = full_sweep_seconds
        self._seen: dict[str, str] = {}
        self._last_sweep = float("-inf")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> list[RefreshStats]:
        slug = self.slug() if callable(self.slug) else self.slug
        sweep = time.monotonic() - self._last_sweep >= self.full_sweep_seconds
        out: list[RefreshStats] = []
        for r in self.graph.read(PROJECT_GENERATIONS, {"project_id": None}):
            mark = sha256(slug, *sorted(r["generations"]))
            if not sweep and self._seen.get(r["id"]) == mark:
                continue
            stats = refresh_project(self.graph, r["id"], slug)
            out.append(stats)
            # As read before the refresh, moved by the refresh's own bumps: a write meanwhile is seen next round.
            now = self.graph.read(PROJECT_GENERATIONS, {"project_id": r["id"]})
            if stats.bumped and now and _moved_by(r["generations"], stats.bumped) == sorted(now[0]["generations"]):
                mark = sha256(slug, *sorted(now[0]["generations"]))
            self._seen[r["id"]] = mark
        if sweep:
            self._last_sweep = time.monotonic()
        return out

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except Exception as exc:  # a failed round (Neo4j away) is retried on the next one
                log.warning("entity vector refresh failed: %s", exc)
            self._stop.wait(self.interval)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="memora-entity-vectors", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
