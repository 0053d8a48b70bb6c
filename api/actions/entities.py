"""What a member reads about persons, places and things: those they know of, the most important, who appears with
one, when, the entries that name one, which are like it (and its timeline as a picture), and for a writer the names
recognition found, to review, and the decision on one (confirm, reject, merge into a known entity); a writer's own
declaration of a name.
`GET /v1/projects/{p}/entities`, `/analytics/...` and `/entities/candidates`, `/merge` answer these, and the web's
people and entity pages and the MCP `entity_question` tool run them. Unpaid: the door pays its read or write (a
route's budget dependency, `api.actions.read.paid_read`, `api.actions.write.paid_write`)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Any, Literal

from api.actions.pictures import ChartWords, timeline_document
from api.actions.refusals import Conflict, Invalid, NotFound
from api.actions.roles import must_be_member, must_write
from api.actions.write import field_error
from api.date_range import BadRange, date_range
from api.models.core import (
    CooccurrenceOut,
    EntityIn,
    EntityOut,
    EntityRef,
    ImportanceOut,
    RelinkJobOut,
    TimelineOut,
)
from api.models.entity_review import CandidateDecisionOut, CandidateOut, MergeIn, MergeOut
from api.models.entity_vectors import SimilarItemOut, SimilarOut, SimilarRef
from api.services import Services
from graph.analytics import co_occurrence, importance, timeline
from graph.candidates import candidate_sources, confirm_candidate, list_candidates, reject_candidate
from graph.entities import Entity, find_visible_entity, list_visible_entities, upsert_entity
from graph.entity_merge import MergeRefused, find_entity, merge_entities
from graph.timelines import timeline_months
from graph.visibility import Viewer
from ingest.relink import RelinkJob
from queries.entities.similar import find_target, similar
from queries.entity_entries import EntityEntries, entity_entries
from queries.listing import BadCursor

EntityKind = Literal["person", "place", "thing"]
Measure = Literal["jaccard", "pmi", "count"]
Clock = Literal["event", "written"]
Resolution = Literal["year", "month"]


def known(svc: Services, viewer: Viewer, project_id: str) -> list[EntityOut]:
    """With their aliases, as the viewer knows them: named by entries they may see or by declarations whose
    audience includes them."""
    must_be_member(svc, project_id, viewer)
    return [
        EntityOut(id=e.id, kind=e.kind, name=e.name, aliases=list(e.aliases), called=list(e.called))  # type: ignore[arg-type]
        for e in list_visible_entities(svc.graph, [project_id], viewer)
    ]


def most_important(
    svc: Services, viewer: Viewer, project_id: str, kind: EntityKind | None = None, limit: int = 10
) -> list[ImportanceOut]:
    """Visible entries × (1 + chapters + years) they span, so a person of every era outranks a burst."""
    must_be_member(svc, project_id, viewer)
    return [ImportanceOut.model_validate(row) for row in importance(svc.graph, viewer, project_id, kind, limit)]


def candidates(svc: Services, viewer: Viewer, project_id: str, limit: int = 50) -> list[CandidateOut]:
    """Names in the entries the viewer may see that are no known entity, most mentioned first; writers only, who
    are the ones to confirm or reject them."""
    must_write(svc, project_id, viewer)
    return [CandidateOut.model_validate(c.as_dict()) for c in list_candidates(svc.graph, project_id, viewer, limit)]


def cooccurrence(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    entity: str,
    limit: int = 10,
    kind: EntityKind | None = None,
    measure: Measure = "jaccard",
    date_from: str | None = None,
    date_to: str | None = None,
    time: Clock = "event",
) -> CooccurrenceOut:
    """Who or what appears with an entity, counted over visible entries only; `kind` keeps companions of one kind,
    `date_from`/`date_to` (as vague as entry dates) entries where both are named in the range, by `time`. A
    non-member is refused before a bad range, and a bad range before an unknown entity."""
    must_be_member(svc, project_id, viewer)
    start, end = _range(date_from, date_to)
    e = visible_entity(svc, viewer, project_id, entity)
    return CooccurrenceOut.model_validate(
        {
            "entity": _ref(e),
            "measure": measure,
            "with": co_occurrence(svc.graph, viewer, project_id, e.id, limit, kind, measure, start, end, time),
        }
    )


def entity_timeline(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    entity: str,
    resolution: Resolution = "year",
    time: Clock = "event",
) -> TimelineOut:
    """Visible entries per year (and per month with `resolution="month"`) mentioning an entity, placed by when what
    they tell of it happened (`time="event"`) or when they were written."""
    e = visible_entity(svc, viewer, project_id, entity)
    out: dict[str, Any] = {"entity": _ref(e), "years": timeline(svc.graph, viewer, project_id, e.id, time)}
    if resolution == "month":
        out["months"], out["vaguer"] = timeline_months(svc.graph, viewer, project_id, e.id, time)
    return TimelineOut.model_validate(out)


def timeline_picture(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    entity: str,
    resolution: Resolution = "year",
    time: Clock = "event",
    words: ChartWords | None = None,
) -> bytes:
    """`entity_timeline` as an SVG bar chart (`api.actions.pictures`, no plotting library needed), in `words` (English
    by default)."""
    e = visible_entity(svc, viewer, project_id, entity)
    rows = (
        timeline(svc.graph, viewer, project_id, e.id, time)
        if resolution == "year"
        else timeline_months(svc.graph, viewer, project_id, e.id, time)[0]
    )
    return timeline_document(e.name, rows, resolution, words)


def entries_naming(
    svc: Services, viewer: Viewer, project_id: str, entity: str, limit: int = 20, cursor: str | None = None
) -> EntityEntries:
    """A page of the visible entries that name an entity, newest first; a cursor from another listing is refused as
    the query's field."""
    e = visible_entity(svc, viewer, project_id, entity)
    try:
        return entity_entries(svc.graph, viewer, project_id, e.id, limit, cursor)
    except BadCursor as exc:
        raise Invalid([field_error("cursor", str(exc), where="query")]) from exc


def similar_to(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    entity: str,
    limit: int = 10,
    kind: Literal["person", "place", "thing", "period"] | None = None,
) -> SimilarOut:
    """Entities or chapters (of `kind`; by default the kind of `entity`) whose vectors, built from the entries the
    viewer may see, are closest to `entity`'s. An entity without a vector yet is refused like an unknown one."""
    must_be_member(svc, project_id, viewer)
    model = svc.embedder.slug
    target = find_target(svc.graph, viewer, project_id, entity, model)
    if target is None:
        raise NotFound("no such person, place, thing or chapter")
    tid, name, tkind = target
    found = similar(svc.graph, viewer, project_id, tid, model, kind or tkind, limit)
    return SimilarOut(
        entity=SimilarRef(id=tid, name=name, kind=tkind),  # type: ignore[arg-type]
        similar=[
            SimilarItemOut(
                id=s.id,
                name=s.name,
                kind=s.kind,  # type: ignore[arg-type]
                score=s.score,
                entries=s.entries,
            )
            for s in found
        ],
    )


def declare(svc: Services, viewer: Viewer, project_id: str, body: EntityIn) -> EntityOut:
    """Declare a name and its aliases for an audience; writers only. The answer is the caller's own declaration,
    never what another source holds about an entity of the same name, and the job re-linking the project's entries."""
    must_write(svc, project_id, viewer)
    e = upsert_entity(
        svc.graph, project_id, body.kind, body.name, body.aliases, audience=body.audience, author_id=viewer.user_id
    )
    return EntityOut(
        id=e.id,
        kind=body.kind,
        name=e.name,
        aliases=list(e.aliases),
        relink=job_out(svc.relink_jobs.submit(project_id, viewer.user_id or "")),
    )


def decide_candidate(
    svc: Services,
    viewer: Viewer,
    project_id: str,
    kind: EntityKind,
    name: str,
    decision: Literal["confirm", "reject"],
    as_kind: EntityKind | None = None,
) -> CandidateDecisionOut:
    """Confirm a candidate (declare it, then re-link entries in the background) or reject it; writers only.
    `as_kind` declares a confirmed name as another kind than `kind`, recognition's guess ("Cádiz" as a place): the
    candidate is found by its name alone, among the entries the viewer may see, whatever kind it was given."""
    must_write(svc, project_id, viewer)
    if as_kind is not None and decision != "confirm":
        raise Invalid([field_error("as", "only a confirmation declares a kind; a rejection is of the name")])
    kind = as_kind or kind
    found = candidate_sources(svc.graph, project_id, viewer, name, kind)
    if found is None:
        raise NotFound(f"no candidate {kind} called {name}")
    source, user = found, viewer.user_id or ""
    if decision == "reject":
        reject_candidate(svc.graph, project_id, source, user)
        return CandidateDecisionOut(name=source.name, kind=kind, status="rejected")
    entity = confirm_candidate(svc.graph, project_id, source, user)
    return CandidateDecisionOut(
        name=source.name,
        kind=kind,
        status="confirmed",
        id=entity.id,
        relink=job_out(svc.relink_jobs.submit(project_id, user)),
    )


def merge(svc: Services, viewer: Viewer, project_id: str, body: MergeIn) -> MergeOut:
    """Merge entity `from` into `into` (writers only): every name of `from` becomes an alias of `into`, and its
    mentions move there when entries are re-linked in the background. Two kinds, or one entity, is a conflict."""
    must_write(svc, project_id, viewer)
    into = _find(svc, project_id, viewer, body.kind, body.into)
    merged = _find(svc, project_id, viewer, body.kind or into.kind, body.from_)
    try:
        result = merge_entities(svc.graph, project_id, into, merged, viewer, viewer.user_id or "")
    except MergeRefused as exc:
        raise Conflict(str(exc)) from exc
    return MergeOut(
        id=into.id,
        kind=into.kind,  # type: ignore[arg-type]
        name=into.name,
        merged=merged.name,
        aliases_added=result.aliases,
        relink=job_out(svc.relink_jobs.submit(project_id, viewer.user_id or "")),
    )


def visible_entity(svc: Services, viewer: Viewer, project_id: str, name: str) -> Entity:
    """An entity by id, name or alias among those a member may know of; a hidden one is refused like a missing
    one."""
    must_be_member(svc, project_id, viewer)
    entity = find_visible_entity(svc.graph, project_id, viewer, name)
    if entity is None:
        raise NotFound("no such person, place or thing")
    return entity


def job_out(job: RelinkJob) -> RelinkJobOut:
    """The job as its requester sees it (its numbers count only entries they may see)."""
    return RelinkJobOut.model_validate({k: v for k, v in asdict(job).items() if k != "viewer_id"})


def _find(svc: Services, project_id: str, viewer: Viewer, kind: str | None, name: str) -> Entity:
    entity = find_entity(svc.graph, project_id, viewer, name, kind)
    if entity is None:
        raise NotFound(f"no such person, place or thing: {name}")
    return entity


def _range(date_from: str | None, date_to: str | None) -> tuple[date | None, date | None]:
    """The range as dates, or refused naming the query parameter at fault."""
    try:
        return date_range(date_from, date_to)
    except BadRange as exc:
        raise Invalid([field_error(exc.field, str(exc), where="query")]) from None


def _ref(e: Entity) -> EntityRef:
    return EntityRef.model_validate({"id": e.id, "name": e.name, "kind": e.kind})
