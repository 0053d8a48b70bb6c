"""The MCP tools: each one runs the action its route runs (`api.actions`), which spends from the same rate-limit
budget before the tool validates its arguments with the route's model, so visibility, limits and errors are the
HTTP API's by construction (no second implementation to drift). The reads whose routes pay through a budget
dependency are run inside a paid read (`api.actions.read.paid_read`). A route whose role check is a FastAPI
dependency (`ProjectMember`) gets the same check (`require_member`) first, as the dependency would.

Witness links reach three tools only, each running what its witness route (`/v1/w/{token}/...`) runs: `search`,
`get_entry` and `add_entry` (an account, kind witness, intimacy circle, in the link's chapter).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException
from pydantic import BaseModel

from api.actions import context as contexts
from api.actions import entities, projects, witnesses
from api.actions import search as searching
from api.actions import write as writing
from api.actions.entries import visible_entry
from api.actions.read import paid_read
from api.deps import require_member
from api.mcp.caller import WITNESS_ONLY, Caller
from api.middleware import too_large
from api.models.core import EntryIn, EntryOut, WitnessEntryIn, WitnessSearchRequest, WriteOut
from api.models.live import LiveContextOut, LiveRequest
from api.models.mcp import (
    AddEntryIn,
    EntityAnswerOut,
    EntityQuestionIn,
    GetEntryIn,
    SummaryIn,
    SummaryToolOut,
)
from api.models.search import SearchRequest, SearchResponseOut
from api.models.summaries import ChapterContextOut, ChapterRequest
from api.services import Services
from graph.ids import period_id

Handler = Callable[[Services, Caller, dict[str, Any]], BaseModel]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    arguments: type[BaseModel]
    result: type[BaseModel]
    call: Handler
    witness_arguments: type[BaseModel] | None = None
    """The witness route's body, when a witness link may call the tool."""


def _uid(caller: Caller) -> str:
    return caller.viewer.user_id or ""


def _search(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    grant = caller.grant
    if grant is not None:
        return searching.search(
            svc,
            caller.budgets,
            caller.who,
            lambda: searching.witness_asked(grant, WitnessSearchRequest.model_validate(args)),
        )
    return searching.search(
        svc, caller.budgets, caller.who, lambda: searching.asked_of(SearchRequest.model_validate(args))
    )


def _get_entry(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    entry_id = GetEntryIn.model_validate(args).entry_id
    if caller.witness_token is not None:
        return witnesses.entry(svc, caller.witness_token, entry_id)
    return visible_entry(svc, caller.viewer, entry_id)


def _missing(name: str) -> HTTPException:
    return HTTPException(422, [{"loc": ["arguments", name], "msg": "Field required", "type": "missing"}])


def _entity_question(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    return paid_read(caller.budgets, caller.who, lambda: _answer(svc, caller, args))


def _answer(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    a = EntityQuestionIn.model_validate(args)
    if a.question != "importance" and a.entity is None:
        raise _missing("entity")
    if a.kind == "period" and a.question != "similar":
        raise HTTPException(
            422,
            [
                {
                    "loc": ["arguments", "kind"],
                    "msg": "Input should be 'person', 'place' or 'thing' (a chapter only for `similar`)",
                    "type": "literal_error",
                }
            ],
        )
    who, p, kind = caller.viewer, a.project_id, a.kind if a.kind != "period" else None
    out = EntityAnswerOut(question=a.question)
    if a.question == "cooccurrence":
        out.cooccurrence = entities.cooccurrence(
            svc, who, p, a.entity or "", a.limit, kind, a.measure, a.date_from, a.date_to, a.time
        )
    elif a.question == "timeline":
        out.timeline = entities.entity_timeline(svc, who, p, a.entity or "", a.resolution, a.time)
    elif a.question == "importance":
        out.importance = entities.most_important(svc, who, p, kind, a.limit)
    else:
        out.similar = entities.similar_to(svc, who, p, a.entity or "", a.limit, a.kind)
    return out


def _summary(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    return paid_read(caller.budgets, caller.who, lambda: _summarised(svc, caller, args))


def _summarised(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    a = SummaryIn.model_validate(args)
    require_member(svc, a.project_id, caller.viewer)  # the routes' `ProjectMember` dependency
    if a.period is None:
        return SummaryToolOut(project_id=a.project_id, summary=projects.summary(svc, caller.viewer, a.project_id))
    for period in projects.periods(svc, caller.viewer, a.project_id):
        if a.period == period.id or period_id(a.project_id, a.period) == period.id:  # the id, or any spelling
            return SummaryToolOut(project_id=a.project_id, period=period, summary=period.summary)
    raise HTTPException(404, "no such chapter in this project")  # hidden and missing chapters alike


def _chapter_context(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    return contexts.chapter(svc, caller.budgets, caller.who, lambda: ChapterRequest.model_validate(args))


def _live_context(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    return contexts.live_context(svc, caller.budgets, caller.who, lambda: LiveRequest.model_validate(args))


def _add_entry(svc: Services, caller: Caller, args: dict[str, Any]) -> BaseModel:
    grant = caller.grant
    if grant is not None:
        return writing.witness_account(svc, caller.budgets, grant, lambda: WitnessEntryIn.model_validate(args))

    def new() -> writing.NewEntry:
        wait = AddEntryIn.model_validate(args).wait
        return writing.NewEntry(EntryIn.model_validate({k: v for k, v in args.items() if k != "wait"}), wait)

    return writing.create(svc, caller.budgets, caller.who, new)


TOOLS: dict[str, Tool] = {
    t.name: t
    for t in (
        Tool(
            "search",
            "Hybrid search (meaning, keywords, names, dates) over the entries the caller may see; the body "
            "of POST /v1/search. Results cite entry ids.",
            SearchRequest,
            SearchResponseOut,
            _search,
            WitnessSearchRequest,
        ),
        Tool(
            "get_entry",
            "One entry as it was written (GET /v1/entries/{id}); a hidden entry answers exactly like a missing one.",
            GetEntryIn,
            EntryOut,
            _get_entry,
            GetEntryIn,
        ),
        Tool(
            "entity_question",
            "Questions about persons, places and things, counted over visible entries only: "
            "co-occurrence, timeline, importance, similar (GET /v1/projects/{p}/analytics/...).",
            EntityQuestionIn,
            EntityAnswerOut,
            _entity_question,
        ),
        Tool(
            "summary",
            "The caller's summary of a project, or of one chapter with `period` "
            "(GET /v1/projects/{p}/summary and /periods).",
            SummaryIn,
            SummaryToolOut,
            _summary,
        ),
        Tool(
            "chapter_context",
            "What a chapter about `theme` should draw on within `budget_tokens`: the project "
            "summary, the matching chapters and their best entries in date order, with entry ids to cite "
            "(POST /v1/context/chapter).",
            ChapterRequest,
            ChapterContextOut,
            _chapter_context,
        ),
        Tool(
            "live_context",
            "An interviewer's live context: entries, persons and places related to the end of a "
            "running transcript (POST /v1/context/live).",
            LiveRequest,
            LiveContextOut,
            _live_context,
        ),
        Tool(
            "add_entry",
            "Write an entry (owners and coauthors of the project; POST /v1/entries). With a witness "
            "link: the witness's own account in their chapter.",
            AddEntryIn,
            WriteOut,
            _add_entry,
            WitnessEntryIn,
        ),
    )
}


def listed(caller: Caller) -> list[tuple[Tool, type[BaseModel]]]:
    """The tools a caller may call, each with the arguments model it takes from them."""
    if caller.witness_token is None:
        return [(t, t.arguments) for t in TOOLS.values()]
    return [(t, t.witness_arguments) for t in TOOLS.values() if t.witness_arguments is not None]


def call(svc: Services, caller: Caller, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The tool's JSON result (as the route's response body), or what the API would refuse with: a route's
    `HTTPException` or an action's domain error (`caller.refusal_of` reads both)."""
    tool = TOOLS.get(name)
    if tool is None:
        raise HTTPException(404, f"no such tool: {name[:100]!r} (tools: {', '.join(TOOLS)})")
    if caller.witness_token is not None and tool.witness_arguments is None:
        raise HTTPException(403, WITNESS_ONLY)
    if caller.body_limit is not None and len(json.dumps(args, ensure_ascii=False).encode()) > caller.body_limit:
        raise HTTPException(
            422, [{"loc": ["arguments"], "msg": too_large(caller.body_limit), "type": "body_too_large"}]
        )
    return tool.call(svc, caller, args).model_dump(mode="json", by_alias=True)
