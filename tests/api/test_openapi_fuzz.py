"""Schemathesis against the app's own OpenAPI schema, in process, on the real Neo4j and embedder.

Every operation gets a bounded number of generated requests (valid and invalid), sent with the bearer token of a
user who owns a small project. About half of the generated project ids, entry ids and witness tokens are replaced by
real ones so requests reach the code behind the membership checks instead of stopping at 403/404. Checks: no 5xx,
and every documented response matches its schema.

`status_code_conformance` is not run: FastAPI documents only the success code and 422 for each route, while the API's
contract (docs/http.md) answers 401, 403, 404 and 409 on purpose, so every correct refusal would be reported.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from api import auth
from api.app import Services, create_app
from api.ratelimit import UNLIMITED
from graph.db import Graph
from graph.ids import period_id
from graph.members import set_member
from graph.settings import Settings, get_settings
from graph.witnesses import create_grant
from inference.embedders import CheckedEmbedder
from ingest.pipeline import Ingestor
from ingest.records import parse_line
from tests.budget import examples
from tests.conftest import CLEANUP, SUMMARY

pytestmark = [pytest.mark.slow, pytest.mark.serial]

EXAMPLES_PER_OPERATION = examples(25)
STATUSES: Counter[int] = Counter()
OPERATIONS: set[str] = set()

# Graph and embedder are created lazily by Services on the first request, from the same settings and caches as the
# session fixtures; loading the schema needs neither. Rate limits are off: one user sends every generated request,
# and half the generated witness links are invalid (tests/api/test_rate_limits.py checks the 429 against the schema).
APP = create_app(Services(get_settings().model_copy(update=UNLIMITED)))
schema = schemathesis.openapi.from_asgi(
    "/openapi.json",
    APP,
    config=schemathesis.Config.from_dict(
        {
            "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
            "generation": {"database": "none"},
        }
    ),
)


@pytest.fixture(scope="module")
def fuzz_world(graph: Graph, embedder: CheckedEmbedder, settings: Settings) -> Iterator[dict[str, str]]:
    """A project with an owner, a reader, two entries in a chapter and a live witness link; removed afterwards."""
    prefix = f"tf{uuid.uuid4().hex[:10]}-"
    project, owner = f"{prefix}p", f"{prefix}owner"
    set_member(graph, project, owner, "owner")
    set_member(graph, project, f"{prefix}reader", "reader")
    rows = [
        {
            "entry_id": f"{project}/{lvl}",
            "project_id": project,
            "author": owner,
            "intimacy": lvl,
            "period": "Berlín 2008",
            "text": f"Zanahoria {lvl} en Berlín con papá.",
        }
        for lvl in ("private", "public")
    ]
    report = Ingestor(graph, embedder).ingest([(i, parse_line(i, json.dumps(r))) for i, r in enumerate(rows, 1)])
    assert not report.errors
    grant = create_grant(graph, project, period_id(project, "Berlín 2008"), owner, timedelta(hours=1))
    assert grant is not None
    yield {
        "prefix": prefix,
        "project": project,
        "owner": owner,
        "entry": f"{project}/public",
        "token": auth.issue(settings, owner),
        "witness": auth.issue_witness(settings, grant, 3600),
    }
    graph.write(CLEANUP, {"prefix": prefix})
    graph.write("MATCH (u:User {id: $id}) DETACH DELETE u", {"id": f"witness:{grant}"})
    if OPERATIONS:
        # A runner that cannot expand the schema's parametrization (pytest-xdist workers) runs one operation and
        # passes; `make test` runs this module in its serial part, and this says so if it ever does not.
        documented = {op.ok().label for op in schema.get_all_operations()}
        assert documented == OPERATIONS, f"fuzzed {len(OPERATIONS)} of {len(documented)} operations"
    SUMMARY.append(
        f"openapi fuzz: {sum(STATUSES.values())} generated requests over {len(OPERATIONS)} operations "
        f"passed both checks; statuses {dict(sorted(STATUSES.items()))}"
    )


WORLD_ENDING = {("DELETE", "/v1/projects/{project_id}"), ("POST", "/v1/projects/{project_id}/leave")}


def _half(value: Any) -> bool:
    """A stable coin flip per generated value, so shrinking replays the same rewrite."""
    return isinstance(value, str) and len(value) % 2 == 0


def _aim(case: schemathesis.Case, world: dict[str, str]) -> None:
    """Point part of the generated requests at real objects, and keep every created user under the test prefix."""
    params = case.path_parameters or {}
    if (case.operation.method.upper(), case.operation.path) in WORLD_ENDING:
        return  # the owner leaving or deleting the world would leave later operations nothing real to aim at
    for name, real in (("project_id", world["project"]), ("entry_id", world["entry"]), ("token", world["witness"])):
        if name in params and _half(params[name]):
            params[name] = real
    if "user_id" in params and isinstance(params["user_id"], str):
        params["user_id"] = world["prefix"] + params["user_id"]
    body = case.body
    if isinstance(body, dict):
        if "project_id" in body and _half(body["project_id"]):
            body["project_id"] = world["project"]
        user = body.get("user_id")
        if isinstance(user, str):
            body["user_id"] = world["prefix"] + user


CHECKS = [not_a_server_error, response_schema_conformance]


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
def test_no_server_errors_and_responses_match_the_schema(case: schemathesis.Case, fuzz_world: dict[str, str]) -> None:
    _aim(case, fuzz_world)
    response = case.call_and_validate(headers={"Authorization": f"Bearer {fuzz_world['token']}"}, checks=CHECKS)
    STATUSES[response.status_code] += 1
    OPERATIONS.add(case.operation.label)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/entries", {"text": "Zanahoria", "occurred_on": "2008-13-40"}),
        ("POST", "/v1/search", {"q": "z" * 1_000_001}),
    ],
    ids=["entry-with-impossible-date", "body-over-the-size-limit"],
)
def test_every_422_matches_the_documented_validation_error(
    fuzz_world: dict[str, str], method: str, path: str, body: dict[str, Any]
) -> None:
    """Clients generated from the schema parse every 422 as HTTPValidationError, including the ones the app builds
    itself after validation (an impossible date) or before it (the body-size limit)."""
    case = schema[path][method].Case(body={"project_id": fuzz_world["project"], **body})
    response = case.call(headers={"Authorization": f"Bearer {fuzz_world['token']}"})
    assert response.status_code == 422
    case.validate_response(response, checks=[response_schema_conformance])
