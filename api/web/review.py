"""A writer's decision on a name recognition found, from the people page's form: confirm it (as the kind recognition
guessed, or another the writer chose), reject it, or merge it into a known person, place or thing (confirmed as the
chosen kind, then merged). Everything runs the actions the API's candidate and merge routes run, as the viewer; a
merge's target is checked among the entities the viewer knows before anything changes. A refusal is said in a
sentence of the page's language naming what was typed, never the API's English detail, field path or status: the
target unknown (hidden and missing alike), of another kind, or the name no longer to review."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from api.actions import entities
from api.actions.entities import EntityKind
from api.actions.refusals import Conflict, NotFound
from api.actions.roles import must_write
from api.models.core import EntityOut
from api.models.entity_review import MergeIn
from api.services import Services
from api.web.worded import WordedRefusal
from graph.textnorm import fold
from graph.visibility import Viewer

KINDS: tuple[str, ...] = get_args(EntityKind)


@dataclass(frozen=True)
class Decision:
    """The form as the page sent it: the name, the kind it is (as chosen), what to do, and a merge's target."""

    name: str
    kind: str
    decision: Literal["confirm", "reject", "merge"]
    into: str = ""


class ReviewRefused(WordedRefusal):
    """A decision refused before (or instead of) a change."""


def decide(svc: Services, project_id: str, who: Viewer, form: Decision) -> None:
    """The decision, or `ReviewRefused`; a merge's target is checked before the name is confirmed, so a refused
    merge changes nothing."""
    must_write(svc, project_id, who)  # a reader is refused as a reader, whatever the form says
    if form.kind not in KINDS:
        raise ReviewRefused(422, "review_bad_kind", name=form.name)
    kind: EntityKind = form.kind  # type: ignore[assignment]
    target = _target(svc, project_id, who, form, kind) if form.decision == "merge" else None
    try:
        if form.decision == "reject":
            entities.decide_candidate(svc, who, project_id, kind, form.name, "reject")
            return
        decided = entities.decide_candidate(svc, who, project_id, kind, form.name, "confirm")
        if target is not None:
            merge = MergeIn.model_validate({"into": target.id, "from": decided.name, "kind": kind})
            entities.merge(svc, who, project_id, merge)
    except NotFound as exc:
        raise ReviewRefused(404, "review_gone", name=form.name) from exc
    except Conflict as exc:
        raise ReviewRefused(409, "review_not_merged", name=form.name, into=form.into.strip()) from exc


def _target(svc: Services, project_id: str, who: Viewer, form: Decision, kind: str) -> EntityOut:
    """The known entity of `kind` called `into` (by id, name or alias, as the viewer knows them); refused in words
    when none is: not typed, known to the viewer by no kind, or only by another kind."""
    into = form.into.strip()
    if not into:
        raise ReviewRefused(422, "review_merge_empty", name=form.name)
    key = fold(into)
    called = [e for e in entities.known(svc, who, project_id) if e.id == into or key in names_of(e)]
    same = next((e for e in called if e.kind == kind), None)
    if same is not None:
        return same
    if called:
        other = called[0]
        raise ReviewRefused(
            422, "review_merge_other_kind", name=form.name, into=other.name, kind=kind, its_kind=other.kind
        )
    raise ReviewRefused(422, "review_merge_unknown", name=form.name, into=into)


def names_of(e: EntityOut) -> set[str]:
    """An entity's name and aliases, folded as a typed name is (`graph.textnorm.fold`)."""
    return {fold(n) for n in (e.name, *e.aliases)}
