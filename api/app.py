"""The HTTP service, assembled: settings and Services, middleware, error handlers, one router per resource
(`api/routes/`), and the embedding worker's lifespan.

Every endpoint but /health needs a valid bearer token; what a viewer may not see answers exactly like what does not
exist (404), and project access without membership is 403 whether or not it exists.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.routing import APIRoute

from api.blas import blas_threads
from api.docs_page import add_docs
from api.errors import NOT_FOUND, add_error_handlers
from api.jwt_auth import verifier_for
from api.metrics import RequestMetrics
from api.middleware import BodyLimit, TrustedOrigins, served_names
from api.ratelimit import Limits, rate_limited
from api.responses import errors
from api.routes import (
    entities,
    entity_edits,
    entity_review,
    entries,
    export,
    feedback,
    health,
    live,
    metrics,
    neighbours,
    projects,
    search,
    timelines,
    witnesses,
)
from api.routes import similar as similar_routes
from api.routes import summaries as summary_routes
from api.services import Services
from api.warmup import WarmStart
from api.web.app import add_web_app
from graph.entity_vectors import VectorWorker
from graph.settings import get_settings
from ingest.embedding_jobs import Worker, current_state
from ingest.summary_jobs import SummaryWorker

__all__ = ["NOT_FOUND", "Services", "create_app"]

ROUTERS = (
    health.router,
    search.router,
    entries.router,
    entries.list_router,
    neighbours.router,
    projects.router,
    export.router,
    entities.router,
    entity_edits.router,
    witnesses.router,
    live.router,
    timelines.router,
    entity_review.router,
    similar_routes.router,
    summary_routes.router,
    feedback.router,
    metrics.router,
)
UNAUTHENTICATED = (health.router, metrics.router)
OWN_RESPONSES = (export.router,)
"""Routers that declare their own 429 (a JSON error beside a route whose success is not JSON)."""
"""Every other route takes a token or link, so it may be refused while its caller's address has failed too often."""


def operation_id(route: APIRoute) -> str:
    """The route function's name (`search`, `get_entry`): what a generated client calls its methods."""
    return route.name


def entity_vector_worker(svc: Services) -> VectorWorker | None:
    """Entity vectors kept current in the background (MEMORA_ENTITY_VECTORS_SECONDS; 0 turns it off)."""
    seconds = svc.settings.entity_vectors_seconds
    return (
        VectorWorker(svc.graph, lambda: current_state(svc.graph, svc.settings).active_slug, seconds)
        if seconds > 0
        else None
    )


@asynccontextmanager
async def _background(svc: Services, worker: bool) -> AsyncIterator[None]:
    """With `worker`: the embedding, entity-vector and summary workers, started and stopped with the app, and the
    re-linking an earlier process left unfinished (ingest/relink.py, `RelinkJobs.resume_lost`)."""
    background = Worker(svc.graph, svc.settings) if worker else None
    if background is not None:
        background.start()
    vectors = entity_vector_worker(svc) if worker else None
    if vectors is not None:
        vectors.start()
    refresher = SummaryWorker(svc.graph, svc.settings, svc.embedder) if worker and svc.settings.summary_worker else None
    if refresher is not None:
        refresher.start()
    if worker and svc.settings.relink_resume:
        svc.relink_jobs.resume_lost()
    yield
    if refresher is not None:
        refresher.stop()
    if background is not None:
        background.stop()
    if vectors is not None:
        vectors.stop()


def create_app(services: Services | None = None, worker: bool = False, warm: bool = False) -> FastAPI:
    """The service; with `worker`, a background thread embeds pending chunks (and a migration's target); with
    `warm`, `/ready` answers 503 `warming` until the read statements are planned and the model loaded
    (api/warmup.py). Raises `JwtConfigError` when the MEMORA_AUTH_* settings are incomplete (at startup, not on the
    first JWT)."""
    svc = services or Services(get_settings())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm:
            app.state.warm_start = WarmStart(svc).start()
        with blas_threads(svc.settings.blas_threads):
            async with _background(svc, worker):
                yield

    app = FastAPI(
        title="Memora Graph",
        version="0.1.0",
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        description="Personal memory search on Neo4j: hybrid retrieval with privacy in the query.",
        docs_url=None,  # served from local files by add_docs: no CDN
        redoc_url=None,
    )
    app.state.services = svc
    app.state.limits = Limits(svc.settings)
    app.state.jwt = verifier_for(svc.settings)
    app.add_middleware(BodyLimit, limit=svc.settings.max_body_bytes)
    app.add_middleware(TrustedOrigins, allowed=served_names(svc.settings, svc.settings.api_host))
    app.add_middleware(RequestMetrics)  # outermost: counts refused bodies too
    add_error_handlers(app)
    for router in ROUTERS:
        if router in OWN_RESPONSES + UNAUTHENTICATED:
            app.include_router(router)
        else:
            app.include_router(
                router,
                responses=errors(401, 422, 503) | rate_limited("too many failed authentications from this address"),
            )
    add_docs(app)
    add_web_app(app)
    return app
