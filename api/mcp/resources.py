"""MCP resources and the prompt: the caller's projects (`GET /v1/projects`), each project with the chapters holding
an entry the caller may see (`GET /v1/projects/{p}/periods`), and each such chapter with the caller's summary.
The prompt `write_chapter` wraps `POST /v1/context/chapter` in the instruction to write from it, citing entry ids.

Everything comes from the actions the routes run (`api.actions.projects`), with the caller's viewer; a witness link
has no projects (it is no member) and no prompt, so it lists nothing here.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from fastapi import HTTPException

from api.actions import context as contexts
from api.actions import projects
from api.actions.read import paid_read
from api.deps import require_member
from api.mcp.caller import WITNESS_ONLY, Caller
from api.models.core import MembershipOut
from api.models.mcp import ProjectResourceOut, ProjectsOut
from api.models.summaries import ChapterRequest
from api.services import Services

SCHEME = "memora"
PROJECTS = f"{SCHEME}://projects"
PROMPT = "write_chapter"
PROMPT_ARGUMENTS = (
    ("project_id", "The project to write from.", True),
    ("theme", 'What the chapter is about: free text ("los veranos en Cádiz") or a period id.', True),
    ("budget_tokens", "How much context to gather (default 4000 tokens).", False),
)
INSTRUCTION = (
    'Write a chapter of a first-person memoir about "{theme}", using only the context below (a project summary, '
    "the chapters that match the theme and their best entries in date order). Cite every fact with the id of the "
    "entry it comes from, in square brackets: [{example}]. Do not invent events, names or dates the entries do not "
    "give; where the context is thin, say so rather than fill it in.\n\nContext (JSON):\n{context}"
)


def project_uri(project_id: str) -> str:
    return f"{PROJECTS}/{quote(project_id, safe='')}"


def chapter_uri(project_id: str, period_id: str) -> str:
    return f"{project_uri(project_id)}/chapters/{quote(period_id, safe='')}"


def _not_witness(caller: Caller) -> None:
    if caller.witness_token is not None:
        raise HTTPException(403, WITNESS_ONLY)


def listing(svc: Services, caller: Caller) -> list[dict[str, Any]]:
    """`uri`, `name`, `description` of every resource the caller may read (none for a witness)."""
    if caller.witness_token is not None:
        return []
    return paid_read(caller.budgets, caller.who, lambda: _listing(svc, caller))  # every project's chapters


def _listing(svc: Services, caller: Caller) -> list[dict[str, Any]]:
    mine = projects.memberships(svc, caller.viewer)
    out = [{"uri": PROJECTS, "name": "projects", "description": "Your projects and your role in each."}]
    for p in mine:
        out.append(
            {
                "uri": project_uri(p.project_id),
                "name": p.name or p.project_id,
                "description": f"Project {p.project_id} ({p.role}) and its chapters you may see.",
            }
        )
        for c in projects.periods(svc, caller.viewer, p.project_id):
            out.append(
                {
                    "uri": chapter_uri(p.project_id, c.id),
                    "name": c.name,
                    "description": f"Chapter of {p.project_id}: {c.entries} entries you may see, with your summary.",
                }
            )
    return out


def read(svc: Services, caller: Caller, uri: str) -> dict[str, Any]:
    """A resource's JSON; an unknown or foreign one answers as the route would (404 or 403)."""
    _not_witness(caller)
    parts = urlsplit(uri)
    path = [unquote(s) for s in parts.path.split("/") if s]
    if (
        parts.scheme != SCHEME
        or parts.netloc != "projects"
        or len(path) not in (0, 1, 3)
        or (len(path) == 3 and path[1] != "chapters")
    ):
        raise HTTPException(
            404,
            f"no such resource (resources: {PROJECTS}, {PROJECTS}/{{project_id}}, "
            f"{PROJECTS}/{{project_id}}/chapters/{{period_id}})",
        )
    mine = projects.memberships(svc, caller.viewer)
    if not path:
        return ProjectsOut(projects=mine).model_dump(mode="json")
    return paid_read(caller.budgets, caller.who, lambda: _project(svc, caller, mine, path))  # the periods route's


def _project(svc: Services, caller: Caller, mine: list[MembershipOut], path: list[str]) -> dict[str, Any]:
    project_id = path[0]
    require_member(svc, project_id, caller.viewer)
    membership = next((p for p in mine if p.project_id == project_id), None)
    if membership is None:  # left the project between the two reads
        raise HTTPException(403, "not a member of this project")
    chapters = projects.periods(svc, caller.viewer, project_id)
    if len(path) == 1:
        return ProjectResourceOut(project=membership, chapters=chapters).model_dump(mode="json")
    for chapter in chapters:
        if chapter.id == path[2]:
            return chapter.model_dump(mode="json")
    raise HTTPException(404, "no such chapter in this project")  # hidden and missing alike


def prompt(svc: Services, caller: Caller, arguments: dict[str, str]) -> tuple[str, str]:
    """The prompt's description and its one user message: the instruction and the caller's chapter context."""
    _not_witness(caller)
    asked: list[ChapterRequest] = []

    def body_of() -> ChapterRequest:  # read once the search is paid, as the tool does
        asked.append(ChapterRequest.model_validate(arguments))
        return asked[0]

    ctx = contexts.chapter(svc, caller.budgets, caller.who, body_of).model_dump(mode="json")
    body = asked[0]
    cited = [e.get("entry_id") for e in ctx.get("entries", []) if isinstance(e, dict)]
    example = cited[0] if cited else f"{body.project_id}/entry-id"
    text = INSTRUCTION.format(theme=body.theme, example=example, context=json.dumps(ctx, ensure_ascii=False, indent=1))
    return f"Write a chapter about {body.theme!r} from project {body.project_id}, citing entry ids.", text
