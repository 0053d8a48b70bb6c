"""`GET /v1/projects/{p}/export`: the project as JSON Lines (graph/export.py), streamed, for its owner; with
`own=true`, what the caller wrote, for any member (to take it with them before leaving).

The owner gets what the owner may see, read through the same predicates as every other route: a coauthor's private
entries and private declarations are not in it (docs/SECURITY.md, "Export").
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import JSONResponse, StreamingResponse

from api.deps import ServicesDep, ViewerDep, require_member, require_owner
from api.models.core import ExportLineOut
from graph.export import ExportScope, export_lines, project_exists

router = APIRouter(prefix="/v1/projects", tags=["projects"])
MEDIA_TYPE = "application/x-ndjson"


class NDJSONDoc(JSONResponse):
    """Only for the OpenAPI document: its 200 is JSON Lines (each line a JSON object described by ExportLineOut).
    The route returns a StreamingResponse of that media type."""

    media_type = MEDIA_TYPE


def _json_error(description: str, ref: str | None = None) -> dict[str, Any]:
    """An error answer is JSON (not JSON Lines) with a `detail`; declared by hand so it is not listed under the
    route's own media type."""
    schema = (
        {"$ref": ref}
        if ref
        else {"type": "object", "properties": {"detail": {"type": "string"}}, "required": ["detail"]}
    )
    return {"description": description, "content": {"application/json": {"schema": schema}}}


RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ExportLineOut,
        "description": (
            "JSON Lines, one record a line: the `project` header first, then `member`, `entity`, `declaration` and "
            "`witness_grant` records (each with `memora_record`), then every entry the owner may see as an ingest "
            "record (no `memora_record`), and an `end` record with the number of entries (a stream cut short has "
            "none). `memora import FILE` restores it."
        ),
    },
    401: _json_error(
        "No bearer token, or one that is malformed, forged, expired or revoked.", "#/components/schemas/ErrorOut"
    ),
    403: _json_error(
        "not the project's owner (with `own`: not a member; also for a project that does not exist, so project ids "
        "cannot be probed)",
        "#/components/schemas/ErrorOut",
    ),
    404: _json_error("no such project", "#/components/schemas/ErrorOut"),
    422: _json_error("Invalid path parameter.", "#/components/schemas/ValidationErrorOut"),
    429: {
        **_json_error(
            "Too many requests: too many failed authentications from this address. Retry after the "
            "seconds given in `Retry-After`.",
            "#/components/schemas/RateLimitedOut",
        ),
        "headers": {
            "Retry-After": {
                "description": "seconds to wait, at least 1",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    },
    503: {
        **_json_error(
            "Neo4j is unreachable (before the stream starts; a stream cut later lacks its `end` line)",
            "#/components/schemas/ErrorOut",
        ),
        "headers": {
            "Retry-After": {
                "description": "seconds to wait before retrying",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    },
}


@router.get("/{project_id}/export", response_class=NDJSONDoc, response_model=None, responses=RESPONSES)
def export_project(
    project_id: str,
    who: ViewerDep,
    svc: ServicesDep,
    own: Annotated[
        bool,
        Query(description="Only what the caller wrote (their entries, declarations and rejections): any member may."),
    ] = False,
) -> StreamingResponse:
    """Streamed from one Neo4j result, so a large project never sits in memory."""
    (require_member if own else require_owner)(svc, project_id, who)
    if not project_exists(svc.graph, project_id):
        raise HTTPException(404, "no such project")
    return StreamingResponse(export_lines(svc.graph, project_id, ExportScope(who, own=own)), media_type=MEDIA_TYPE)
