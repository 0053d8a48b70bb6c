"""An entry's page (`/e/{entry_id}`): what the API's own `GET /v1/entries/{id}` answers the viewer, who else sees it,
said in a sentence, the entries before and after it (`GET /v1/neighbours/{id}`), and the edit and delete buttons for
those who may. Its author shows by name (`api.actions.authors`): the person the project says they are."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from api.actions.authors import shown_authors
from api.actions.entries import neighbours, visible_entry
from api.actions.refusals import NotFound, Refused
from api.actions.write import editable
from api.deps import ServicesDep
from api.web.render import page
from api.web.session import SessionDep

router = APIRouter(include_in_schema=False)


@router.get("/e/{entry_id:path}", response_class=HTMLResponse)
def entry_page(request: Request, entry_id: str, session: SessionDep, svc: ServicesDep) -> Response:
    entry = visible_entry(svc, session.viewer, entry_id)
    try:
        editable(svc, session.viewer, entry_id)
        can_edit = True
    except Refused:
        can_edit = False
    try:
        around = neighbours(svc, session.viewer, entry_id)
    except NotFound:  # deleted or re-levelled since it was read: the page shows what was read
        around = None
    values = {"entry": entry, "project_id": entry.project_id, "can_edit": can_edit, "around": around}
    values["authors"] = shown_authors(svc, session.viewer, entry.project_id, [entry.author])
    return page(request, "entry.html", values, session)
