"""A small family project for the summary and chapter tests: each entry says one thing no other entry says (its
marker word), so a summary or a bundle that carries a hidden entry's fact is caught by that word."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from graph.db import Graph
from graph.members import set_member

CADIZ, BERLIN = "Verano en Cádiz", "Berlín 2009"
# (key, author role, intimacy, period, date, text)
ENTRIES = [
    (
        "c1",
        "owner",
        "circle",
        CADIZ,
        "2008-07-02",
        "Llegamos a Cádiz con Marta; la playa de la Caleta olía a sal y alcachofa.",
    ),
    ("c2", "reader", "public", CADIZ, "2008-07-15", "Marta aprendió a nadar en la Caleta, flotaba como un girasol."),
    (
        "c3",
        "owner",
        "intimate",
        CADIZ,
        "2008-07-20",
        "Papá lloró en el puerto de Cádiz, nadie lo vio salvo nosotros, y habló del acordeón.",
    ),
    (
        "c4",
        "owner",
        "private",
        CADIZ,
        "2008-08-01",
        "Escribo a solas: temo que el dinero no llegue, pienso en el mandarino.",
    ),
    ("c5", "reader", "intimate", CADIZ, "2008-08-09", "Lola confiesa que echaba de menos Berlín, cosa de pelícano."),
    (
        "b1",
        "coauthor",
        "circle",
        BERLIN,
        "2009-01-10",
        "Nevaba en Berlín cuando Pep encontró el piso de Kreuzberg, con estufa de hierro.",
    ),
    (
        "b2",
        "coauthor",
        "private",
        BERLIN,
        "2009-02-14",
        "Pep escribe solo: quiere volver a Barcelona, por el tamborín.",
    ),
    (
        "b3",
        "owner",
        "public",
        BERLIN,
        "2009-03-03",
        "En la estación de Berlín comimos salchichas con Marta, riendo del violonchelo.",
    ),
    (
        "n1",
        "coauthor",
        "intimate",
        None,
        "2010-05-05",
        "Sin capítulo: Pep y Ana discutieron del futuro y de la zanfona.",
    ),
]
MARKERS = {
    "c1": "alcachofa",
    "c2": "girasol",
    "c3": "acordeón",
    "c4": "mandarino",
    "c5": "pelícano",
    "b1": "estufa",
    "b2": "tamborín",
    "b3": "violonchelo",
    "n1": "zanfona",
}
ROLES = {"owner": "owner", "coauthor": "coauthor", "reader": "reader"}


def may_see(viewer_role: str | None, viewer_key: str, author_key: str, intimacy: str) -> bool:
    if viewer_role is None:
        return False
    if intimacy == "private":
        return viewer_key == author_key
    if intimacy == "intimate":
        return viewer_key == author_key or viewer_role in ("owner", "coauthor")
    return True


def build(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> dict[str, Any]:
    project = f"{prefix}fam"
    users = {key: f"{prefix}{key}" for key in ROLES}
    for key, role in ROLES.items():
        set_member(graph, project, users[key], role)
    report = ingest([record(project, users, row) for row in ENTRIES])
    assert not report.errors
    return {"project": project, "users": users, "outsider": f"{prefix}outsider"}


def record(project: str, users: dict[str, str], row: tuple[Any, ...], **changes: Any) -> dict[str, Any]:
    key, author, intimacy, period, day, text = row
    rec = {
        "entry_id": f"{project}/{key}",
        "project_id": project,
        "author": users[author],
        "intimacy": intimacy,
        "occurred_on": day,
        "text": text,
    }
    if period:
        rec["period"] = period
    rec.update(changes)
    return rec


def hidden_markers(viewer_key: str) -> list[str]:
    role = ROLES.get(viewer_key)
    return [MARKERS[k] for k, author, level, *_ in ENTRIES if not may_see(role, viewer_key, author, level)]


def visible_keys(viewer_key: str, period: str | None = None) -> set[str]:
    role = ROLES.get(viewer_key)
    return {
        k
        for k, author, level, per, *_ in ENTRIES
        if may_see(role, viewer_key, author, level) and (period is None or per == period)
    }
