"""What a served process prepares before it says it is ready: the read statements planned and the embedding model
loaded, so that the first search after `/ready` is not the one that pays for them.

Planning is `EXPLAIN` of each named read statement of `graph/` and `queries/` (the keyword statements in both the
forms the keyword channel sends), as `Graph.read` sends it (graph/plan_cache.py): nothing runs. The model is loaded
by embedding one fixed question. Then a few searches run through the door as a viewer who belongs to no project, in
a project that does not exist, and the statements that read candidates' facts run once over empty lists: Neo4j
builds each execution plan on a statement's first run, and these runs find nothing. Last, whoever searched last
(the latest members and projects of the retrieval log, `MEMORA_WARM_VIEWS` of them, still members) gets a search of
their project run for them and discarded: it lists their view of the project and its keyword counts, which their
own first search would otherwise wait for (tens of milliseconds on a small project, seconds on a large one). Nothing
is returned or logged; it is what serving them does. A warm-up that fails is logged and ends: the service is then
ready as it always was, only slower on its first searches.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from api.cypher_doc import STRING, named_statements
from api.services import Services
from graph.members import role_of
from graph.plan_cache import prepare, rewritten
from graph.visibility import Viewer
from inference.providers.base import EmbeddingError
from queries.search import keyword, ranker
from queries.search.channels import DETAILS, THREAD
from queries.search.door import hybrid_search
from queries.search.request import Scope, SearchOptions
from queries.search.turns_around import TURNS_AROUND
from queries.telemetry.search_log import recent_searchers

log = logging.getLogger(__name__)
ROOMS = ("graph", "queries")
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|REMOVE|FOREACH|LOAD CSV)\b")
# Searches of the door's shapes (plain words, a date, a name) run as a viewer of nothing in a project that does not
# exist: every channel's statement executes once (Neo4j builds its execution plan on the first run, after `EXPLAIN`
# made the logical one) and finds nothing.
QUESTIONS = ("what did we talk about last summer?", "¿qué pasó en agosto de 2008?", "who came with Pep to Berlin?")
NOBODY = "memora:warm-start"
NOWHERE = "memora:warm-start:nowhere"
# The statements that read the candidates' facts and the results' details, run once over no candidate (every list
# empty, the rest null).
OVER_NOTHING = (ranker.CANDIDATE_FACTS, TURNS_AROUND, THREAD, DETAILS)
EMPTY: dict[str, Any] = {
    "seeds": [],
    "ids": [],
    "cov_terms": [],
    "cov_forms": [],
    "entity_ids": [],
    "project_ids": [NOWHERE],
}
EMPTY |= {"viewer_id": NOBODY, "limit": 1, "text_chars": 0, "after_reach": 1, "before_reach": 1, "window": 1}


def read_statements() -> dict[str, str]:
    """The named statements of the rooms a search and a listing read from, writes left out."""
    return {key: text for key, text in named_statements(ROOMS).items() if not _WRITES.search(STRING.sub("''", text))}


@dataclass(frozen=True)
class Warmth:
    planned: int
    refused: int
    model: bool
    seconds: float
    views: int = 0


def warm(svc: Services) -> Warmth:
    """Plan the read statements and load the model; how many planned, and how long it took."""
    started = time.monotonic()
    statements = [form for text in read_statements().values() for form in keyword.forms(text)]
    with svc.graph.session() as session:
        refused = prepare(session, statements)
    try:
        svc.embedder.embed_query(QUESTIONS[0])
        model = True
    except EmbeddingError as exc:  # searches fall back to keywords until the model answers; readiness does not wait
        log.warning("warm start: the embedding model did not load (%s)", exc)
        model = False
    for question in QUESTIONS:
        hybrid_search(
            svc.graph,
            svc.embedder,
            svc.settings,
            Viewer(user_id=NOBODY),
            question,
            Scope(project_id=NOWHERE),
            SearchOptions(k=10),
            project_ids=[NOWHERE],
        )
    for statement in OVER_NOTHING:  # they run only on candidates, which a search of nothing never has
        _, names = rewritten(statement)
        svc.graph.read(statement, dict.fromkeys(names) | EMPTY)
    views = warm_views(svc)
    done = Warmth(len(statements) - len(refused), len(refused), model, time.monotonic() - started, views)
    log.info(
        "warm start: %d statements planned (%d refused), %d views listed in %.1f s",
        done.planned,
        done.refused,
        done.views,
        done.seconds,
    )
    return done


def warm_views(svc: Services) -> int:
    """A discarded search for each of the latest searchers who is still a member of the project they searched (at
    most `warm_views` of them), their views listed before it returns, however large: how many ran."""
    done, wanted = 0, svc.settings.warm_views
    waited = svc.settings.model_copy(update={"dense_matrix_background_entries": 2**62})  # listed before ready
    for user_id, project_id in recent_searchers(svc.graph, 4 * wanted):
        if done == wanted:
            break
        if role_of(svc.graph, project_id, user_id) is None:
            continue
        hybrid_search(
            svc.graph,
            svc.embedder,
            waited,
            Viewer(user_id=user_id),
            QUESTIONS[0],
            Scope(project_id=project_id),
            SearchOptions(k=10),
        )
        done += 1
    return done


class WarmStart:
    """The warm-up on a thread of its own; `ready` is set when it ends, however it ends."""

    def __init__(self, svc: Services) -> None:
        self.ready = threading.Event()
        self.result: Warmth | None = None
        self._thread = threading.Thread(target=self._run, args=(svc,), name="memora-warm-start", daemon=True)

    def start(self) -> WarmStart:
        self._thread.start()
        return self

    def _run(self, svc: Services) -> None:
        try:
            self.result = warm(svc)
        except Exception:  # noqa: BLE001 - readiness must not wait on a warm-up that cannot finish
            log.exception("warm start failed; serving without it")
        finally:
            self.ready.set()
