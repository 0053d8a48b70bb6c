"""The HTTP service. Every endpoint but /health needs a valid bearer token; what a viewer may not see answers
exactly like what does not exist (404), and project access without membership is 403 whether or not it exists."""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import asdict
from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from neo4j.exceptions import ServiceUnavailable, SessionExpired
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as AsgiScope

from api import auth
from api.models import (
    EntityIn,
    EntityOut,
    EntryIn,
    EntryOut,
    EntryUpdate,
    MemberIn,
    MemberOut,
    ProjectOut,
    ProjectPatch,
    SearchRequest,
    SearchResponseOut,
    WitnessEntryIn,
    WitnessIn,
    WitnessOut,
    WitnessSearchRequest,
    WriteOut,
)
from graph.analytics import co_occurrence, importance, timeline
from graph.db import Graph, get_graph
from graph.entities import find_visible_entity, list_visible_entities, upsert_entity
from graph.entries import get_visible_entry
from graph.ids import period_id
from graph.members import members_of, projects_of, remove_member, role_of, set_member, update_project
from graph.settings import Settings, get_settings
from graph.visibility import Viewer, visibility_params
from graph.witnesses import Grant, active_grant, create_grant, list_grants, revoke_grant
from ingest.embedders import CheckedEmbedder
from ingest.embedding_jobs import Worker, active_embedder
from ingest.pipeline import Ingestor, stored_records
from queries.search import CHANNELS, AccessDenied, Filters, Scope, SearchOptions, hybrid_search

log = logging.getLogger(__name__)
_bearer = HTTPBearer(auto_error=False)
NOT_FOUND = "entry not found"


class Services:
    """What a request needs, built once per app."""

    def __init__(self, settings: Settings, graph: Graph | None = None, embedder: CheckedEmbedder | None = None):
        self.settings = settings
        self._graph = graph
        self._embedder = embedder

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            self._graph = get_graph(self.settings)
        return self._graph

    @property
    def embedder(self) -> CheckedEmbedder:
        """The model the graph names as active (a completed migration switches it without a restart)."""
        if self._embedder is not None:
            return self._embedder
        return active_embedder(self.graph, self.settings)


class BodyLimit:
    """Refuse bodies over the limit, declared (Content-Length) or streamed (chunked), with a 422 and a reason.

    A streamed body is cut at the limit and whatever the application answers to the truncated request is replaced.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._reject(scope, receive, send)
            return
        seen = 0
        too_large = False
        replaced = False

        async def counted() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request" and not too_large:
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_large = True
                    return {"type": "http.request", "body": b"", "more_body": False}
            return message

        async def guarded(message: Message) -> None:
            nonlocal replaced
            if not too_large:
                await send(message)
            elif message["type"] == "http.response.start" and not replaced:
                replaced = True
                await self._reject(scope, receive, send)

        await self.app(scope, counted, guarded)

    async def _reject(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        response = JSONResponse(status_code=422, content={"detail": [{
            "loc": ["body"], "msg": f"request body larger than the limit of {self.limit} bytes",
            "type": "body_too_large"}]})
        await response(scope, receive, send)


def current_viewer(request: Request,
                   creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Viewer:
    """The user named by a valid bearer token; roles are read from the graph by each statement."""
    settings: Settings = request.app.state.services.settings
    if creds is None or creds.scheme.lower() != "bearer":
        raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
    try:
        return Viewer(user_id=auth.verify(settings, creds.credentials))
    except auth.TokenError as exc:
        raise HTTPException(401, f"invalid token: {exc}", headers={"WWW-Authenticate": "Bearer"}) from exc


ViewerDep = Annotated[Viewer, Depends(current_viewer)]


def create_app(services: Services | None = None, worker: bool = False) -> FastAPI:
    """The service; with `worker`, a background thread embeds pending chunks (and a migration's target)."""
    svc = services or Services(get_settings())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        background = Worker(svc.graph, svc.settings) if worker else None
        if background is not None:
            background.start()
        yield
        if background is not None:
            background.stop()

    app = FastAPI(title="Memora Graph", version="0.1.0", lifespan=lifespan,
                  description="Personal memory search on Neo4j: hybrid retrieval with privacy in the query.")
    app.state.services = svc

    app.add_middleware(BodyLimit, limit=svc.settings.max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
                  for e in exc.errors()]
        return JSONResponse(status_code=422, content={"detail": errors})

    @app.exception_handler(ServiceUnavailable)
    @app.exception_handler(SessionExpired)
    async def db_down(_: Request, exc: Exception) -> JSONResponse:
        log.error("Neo4j unavailable: %s", exc)
        return JSONResponse(status_code=503, content={"detail": "the graph database is unavailable; retry later"})

    @app.get("/health")
    def health() -> dict[str, Any]:
        try:
            svc.graph.read("RETURN 1 AS ok")
            return {"status": "ok", "neo4j": "up"}
        except Exception:  # noqa: BLE001 - health reports, it does not raise
            return {"status": "degraded", "neo4j": "down"}

    @app.post("/v1/search", response_model=SearchResponseOut)
    def search(body: SearchRequest, who: ViewerDep) -> SearchResponseOut:
        f = body.filters
        date_from, date_to = f.date_from, f.date_to
        if f.occurred_year is not None:
            from datetime import date

            date_from = max(date_from or date.min, date(f.occurred_year, 1, 1))
            date_to = min(date_to or date.max, date(f.occurred_year, 12, 31))
        filters = Filters(date_from=date_from, date_to=date_to, intimacy_max=f.intimacy_max,
                          person_ids=f.person_ids, persons=f.persons, place_ids=f.place_ids, places=f.places,
                          author_ids=f.author_ids, kinds=list(f.kinds) if f.kinds else None, tags=f.tags,
                          period_id=f.period_id)
        options = SearchOptions(k=body.k, include_chunks=body.include_chunks, explain=body.explain, filters=filters,
                                channels=tuple(body.channels) if body.channels else CHANNELS,
                                diversify=body.diversify)
        try:
            resp = hybrid_search(svc.graph, svc.embedder, svc.settings, who, body.q,
                                 Scope(project_id=body.project_id, multi_project=body.multi_project), options)
        except AccessDenied as exc:
            raise HTTPException(403, str(exc)) from exc
        return SearchResponseOut.model_validate(asdict(resp))

    @app.get("/v1/entries/{entry_id:path}", response_model=EntryOut)
    def get_entry(entry_id: str, who: ViewerDep) -> EntryOut:
        row = get_visible_entry(svc.graph, visibility_params(who), entry_id)
        if row is None:
            raise HTTPException(404, NOT_FOUND)
        return _entry_out(row)

    @app.post("/v1/entries", response_model=WriteOut, status_code=201)
    def create_entry(body: EntryIn, who: ViewerDep) -> WriteOut:
        assert who.user_id is not None
        _require_writer(svc, body.project_id, who)
        entry_id = body.entry_id or f"{body.project_id}/{uuid.uuid4().hex[:12]}"
        if not entry_id.startswith(f"{body.project_id}/"):
            # Ids live in the project's namespace, so a writer can never probe another project's ids.
            raise HTTPException(422, [{"loc": ["body", "entry_id"], "type": "value_error",
                                       "msg": f"entry_id must start with '{body.project_id}/'"}])
        if svc.graph.read("MATCH (e:Entry {id: $id}) RETURN e.id", {"id": entry_id}):
            raise HTTPException(409, "an entry with this id already exists")
        return _write(svc, _record_or_422(lambda: body.to_record(entry_id, who.user_id or "")), "created")

    @app.put("/v1/entries/{entry_id:path}", response_model=WriteOut)
    def update_entry(entry_id: str, body: EntryUpdate, who: ViewerDep) -> WriteOut:
        row = _editable(svc, who, entry_id)
        from ingest.records import EntryRecord

        stored = stored_records(svc.graph, [entry_id])[0]
        record = _record_or_422(lambda: EntryRecord.model_validate({
            **stored, **body.model_dump(), "entry_id": entry_id,
            "project_id": row["entry"]["project_id"], "author": row["entry"]["author_id"]}))
        return _write(svc, record, "updated")

    @app.delete("/v1/entries/{entry_id:path}", response_model=WriteOut)
    def remove_entry(entry_id: str, who: ViewerDep) -> WriteOut:
        _editable(svc, who, entry_id)
        Ingestor(svc.graph, svc.embedder).delete(entry_id)
        return WriteOut(entry_id=entry_id, status="deleted")

    @app.get("/v1/projects")
    def my_projects(who: ViewerDep) -> list[dict[str, str]]:
        return projects_of(svc.graph, who.user_id or "")

    @app.patch("/v1/projects/{project_id}", response_model=ProjectOut)
    def patch_project(project_id: str, body: ProjectPatch, who: ViewerDep) -> ProjectOut:
        _require_owner(svc, project_id, who)
        row = update_project(svc.graph, project_id, body.name, body.hemisphere)
        if row is None:
            raise HTTPException(404, "no such project")
        return ProjectOut.model_validate(row)

    @app.get("/v1/projects/{project_id}/members", response_model=list[MemberOut])
    def list_members(project_id: str, who: ViewerDep) -> list[MemberOut]:
        if role_of(svc.graph, project_id, who.user_id or "") is None:
            raise HTTPException(403, "not a member of this project")
        return [MemberOut.model_validate(m) for m in members_of(svc.graph, project_id)]

    @app.put("/v1/projects/{project_id}/members", response_model=MemberOut)
    def put_member(project_id: str, body: MemberIn, who: ViewerDep) -> MemberOut:
        _require_owner(svc, project_id, who)
        set_member(svc.graph, project_id, body.user_id, body.role)
        return MemberOut(user_id=body.user_id, role=body.role)

    @app.delete("/v1/projects/{project_id}/members/{user_id:path}", status_code=204)
    def delete_member(project_id: str, user_id: str, who: ViewerDep) -> Response:
        _require_owner(svc, project_id, who)
        if not remove_member(svc.graph, project_id, user_id):
            raise HTTPException(404, "no such member")
        return Response(status_code=204)

    @app.get("/v1/projects/{project_id}/entities", response_model=list[EntityOut])
    def get_entities(project_id: str, who: ViewerDep) -> list[EntityOut]:
        if role_of(svc.graph, project_id, who.user_id or "") is None:
            raise HTTPException(403, "not a member of this project")
        return [EntityOut(id=e.id, kind=e.kind, name=e.name, aliases=list(e.aliases))  # type: ignore[arg-type]
                for e in list_visible_entities(svc.graph, [project_id], visibility_params(who))]

    def visible_entity(project_id: str, who: Viewer, name: str) -> Any:
        """An entity by id, name or alias among those the viewer may know of; otherwise 404 (hidden == missing)."""
        if role_of(svc.graph, project_id, who.user_id or "") is None:
            raise HTTPException(403, "not a member of this project")
        entity = find_visible_entity(svc.graph, project_id, visibility_params(who), name)
        if entity is None:
            raise HTTPException(404, "no such person, place or thing")
        return entity

    @app.get("/v1/projects/{project_id}/analytics/cooccurrence")
    def get_cooccurrence(project_id: str, who: ViewerDep, entity: Annotated[str, Query(max_length=200)],
                         limit: Annotated[int, Query(ge=1, le=100)] = 10) -> dict[str, Any]:
        """Who or what appears with an entity ("who appears with Pep?"), counted over visible entries only."""
        e = visible_entity(project_id, who, entity)
        return {"entity": {"id": e.id, "name": e.name, "kind": e.kind},
                "with": co_occurrence(svc.graph, visibility_params(who), project_id, e.id, limit)}

    @app.get("/v1/projects/{project_id}/analytics/timeline")
    def get_timeline(project_id: str, who: ViewerDep, entity: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
        """Visible entries per year mentioning an entity ("when did Marta disappear from my life?")."""
        e = visible_entity(project_id, who, entity)
        return {"entity": {"id": e.id, "name": e.name, "kind": e.kind},
                "years": timeline(svc.graph, visibility_params(who), project_id, e.id)}

    @app.get("/v1/projects/{project_id}/analytics/importance")
    def get_importance(project_id: str, who: ViewerDep,
                       kind: Annotated[Literal["person", "place", "thing"] | None, Query()] = None,
                       limit: Annotated[int, Query(ge=1, le=100)] = 10) -> list[dict[str, Any]]:
        """The project's most important entities: visible entries × (1 + chapters + years) they span."""
        if role_of(svc.graph, project_id, who.user_id or "") is None:
            raise HTTPException(403, "not a member of this project")
        return importance(svc.graph, visibility_params(who), project_id, kind, limit)

    @app.post("/v1/projects/{project_id}/entities", response_model=EntityOut)
    def add_entity(project_id: str, body: EntityIn, who: ViewerDep) -> EntityOut:
        _require_writer(svc, project_id, who)
        e = upsert_entity(svc.graph, project_id, body.kind, body.name, body.aliases)
        return EntityOut(id=e.id, kind=body.kind, name=e.name, aliases=list(e.aliases))

    def witness(token: str) -> Grant:
        try:
            grant_id = auth.verify_witness(svc.settings, token)
        except auth.TokenError as exc:
            raise HTTPException(401, f"invalid witness link: {exc}") from exc
        grant = active_grant(svc.graph, grant_id)
        if grant is None:
            raise HTTPException(401, "this witness link has expired or was revoked")
        return grant

    @app.post("/v1/projects/{project_id}/witnesses", response_model=WitnessOut, status_code=201)
    def invite_witness(project_id: str, body: WitnessIn, who: ViewerDep) -> WitnessOut:
        _require_owner(svc, project_id, who)
        chapter = body.period_id or period_id(project_id, body.period or "")
        grant_id = create_grant(svc.graph, project_id, chapter, who.user_id or "", timedelta(days=body.ttl_days),
                                body.label)
        if grant_id is None:
            raise HTTPException(404, "no such chapter in this project")
        token = auth.issue_witness(svc.settings, grant_id, body.ttl_days * 86400)
        grant = active_grant(svc.graph, grant_id)
        return WitnessOut(grant_id=grant_id, token=token, link=f"/v1/w/{token}/search",
                          expires_at=grant.expires_at if grant else "")

    @app.get("/v1/projects/{project_id}/witnesses")
    def get_witnesses(project_id: str, who: ViewerDep) -> list[dict[str, object]]:
        _require_owner(svc, project_id, who)
        return list_grants(svc.graph, project_id)

    @app.delete("/v1/projects/{project_id}/witnesses/{grant_id}", status_code=204)
    def revoke_witness(project_id: str, grant_id: str, who: ViewerDep) -> Response:
        _require_owner(svc, project_id, who)
        if not revoke_grant(svc.graph, project_id, grant_id):
            raise HTTPException(404, "no such witness grant")
        return Response(status_code=204)

    @app.post("/v1/w/{token}/search", response_model=SearchResponseOut)
    def witness_search(token: str, body: WitnessSearchRequest) -> SearchResponseOut:
        """Similarity is computed exactly over the chapter's circle and public entries, never the project index."""
        grant = witness(token)
        viewer_ = Viewer(witness_period_id=grant.period_id)
        resp = hybrid_search(svc.graph, svc.embedder, svc.settings, viewer_, body.q, Scope(project_id=grant.project_id),
                             SearchOptions(k=body.k, include_chunks=body.include_chunks,
                                           filters=Filters(period_id=grant.period_id)),
                             project_ids=[grant.project_id])
        return SearchResponseOut.model_validate(asdict(resp))

    @app.get("/v1/w/{token}/entries/{entry_id:path}", response_model=EntryOut)
    def witness_entry(token: str, entry_id: str) -> EntryOut:
        grant = witness(token)
        row = get_visible_entry(svc.graph, visibility_params(Viewer(witness_period_id=grant.period_id)), entry_id)
        if row is None:
            raise HTTPException(404, NOT_FOUND)
        return _entry_out(row)

    @app.post("/v1/w/{token}/entries", response_model=WriteOut, status_code=201)
    def witness_write(token: str, body: WitnessEntryIn) -> WriteOut:
        grant = witness(token)
        entry_id = f"{grant.project_id}/witness-{uuid.uuid4().hex[:12]}"
        from ingest.records import EntryRecord

        record = _record_or_422(lambda: EntryRecord.model_validate({
            **body.model_dump(), "entry_id": entry_id, "project_id": grant.project_id,
            "author": f"witness:{grant.id}", "kind": "witness", "intimacy": "circle", "period": grant.period_name}))
        return _write(svc, record, "created")

    return app


def _require_writer(svc: Services, project_id: str, who: Viewer) -> None:
    if role_of(svc.graph, project_id, who.user_id or "") not in ("owner", "coauthor"):
        raise HTTPException(403, "only the project's owner and coauthors can write to it")


def _require_owner(svc: Services, project_id: str, who: Viewer) -> None:
    if role_of(svc.graph, project_id, who.user_id or "") != "owner":
        raise HTTPException(403, "only the project's owner manages members")


def _editable(svc: Services, who: Viewer, entry_id: str) -> dict[str, Any]:
    """Hidden and missing entries are both 404; a visible entry may be changed by its author or the owner."""
    row = get_visible_entry(svc.graph, visibility_params(who), entry_id)
    if row is None:
        raise HTTPException(404, NOT_FOUND)
    entry = row["entry"]
    if entry.get("author_id") != who.user_id and role_of(svc.graph, entry["project_id"], who.user_id or "") != "owner":
        raise HTTPException(403, "only the entry's author or the project's owner can change it")
    return row


def _record_or_422(build: Callable[[], Any]) -> Any:
    from pydantic import ValidationError

    try:
        return build()
    except ValidationError as exc:
        raise HTTPException(422, [{"loc": ["body", *e["loc"]], "msg": e["msg"], "type": e["type"]}
                                  for e in exc.errors()]) from exc


def _write(svc: Services, record: Any, status: str) -> WriteOut:
    report = Ingestor(svc.graph, svc.embedder).ingest([(1, record)])
    if report.errors:
        raise HTTPException(422, [{"loc": ["body"], "msg": report.errors[0].reason, "type": "value_error"}])
    if not report.written:
        return WriteOut(entry_id=record.entry_id, status="unchanged", embedding="done")
    return WriteOut(entry_id=record.entry_id, status=status,  # type: ignore[arg-type]
                    embedding="pending" if report.chunks_pending else "done")


def _entry_out(row: dict[str, Any]) -> EntryOut:
    e = row["entry"]

    def iso(v: Any) -> str | None:
        return v.iso_format() if v is not None else None

    return EntryOut(entry_id=e["id"], project_id=e["project_id"], author_id=e.get("author_id"), title=e.get("title"),
                    text=e.get("body", ""), occurred_on=iso(e.get("occurred_start")),
                    occurred_end=iso(e.get("occurred_end")), occurred_precision=e.get("occurred_precision"),
                    intimacy_level=e["intimacy"], kind=e["kind"], tags=list(e.get("tags") or []),
                    persons=sorted(row["persons"]), places=sorted(row["places"]), things=sorted(row["things"]),
                    periods=row["periods"], embedding_pending=bool(row["pending"]))
