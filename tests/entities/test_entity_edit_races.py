"""An entity edit is never undone by the re-linking job of an earlier edit.

Each run catches the first edit's job in the middle of its write (it has read and linked the project's entries
under the names as they were, and waits for the write lock of an entry hidden from the editor that a test
transaction holds, as behind any slow writer), makes the second edit through the API meanwhile, then lets the job
go on. Whatever the job does next, once both jobs are done the project must show the second edit: the first job
may not write what it linked before it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph import relink_epochs
from graph.db import Graph
from graph.entities import upsert_entity
from graph.entity_edits import find_for_edit, rename_entity
from graph.members import set_member
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from ingest.pipeline import BATCH, IngestReport
from ingest.relink import RelinkJobs, relink_project
from tests.relink_jobs import HeldEntry, wait_relinked

Headers = Callable[[str], dict[str, str]]
Edit = Callable[[], dict[str, Any]]
RUNS = 20


def _projects(graph: Graph, ingest: Callable[..., IngestReport], prefix: str, runs: int) -> list[str]:
    """`runs` projects, each its own world: Ana owns, Bea coauthors, Ana declared Pep, and both list Pep, Bea in a
    private entry Ana may not see. Written in one ingest, so the runs spend their time on the race."""
    projects = [f"{prefix}r{run}" for run in range(runs)]
    records = []
    for p in projects:
        set_member(graph, p, f"{p}-ana", "owner")
        set_member(graph, p, f"{p}-bea", "coauthor")
        upsert_entity(graph, p, "person", "Pep", audience="circle", author_id=f"{p}-ana")
        for key, who, level, text in (
            ("a-hidden", "bea", "private", "Cena con Pep en casa."),
            ("b-seen", "ana", "circle", "Paseo con Pep por el puerto."),
        ):
            records.append(
                {
                    "entry_id": f"{p}/{key}",
                    "project_id": p,
                    "author": f"{p}-{who}",
                    "intimacy": level,
                    "text": text,
                    "persons": ["Pep"],
                    "occurred_on": "2011-05-01",
                }
            )
    assert not ingest(records).errors
    return projects


def _race(client: TestClient, graph: Graph, held: str, first: Edit, second: Edit) -> list[dict[str, Any]]:
    """`first`, then `second` while the first's job waits in its write; returns both edits' jobs."""
    hold = HeldEntry(graph, held)
    answers: list[dict[str, Any]] = []
    edit = threading.Thread(target=lambda: answers.append(second()), daemon=True)
    try:
        answers.append(first())
        hold.wait_until(lambda: bool(hold.waiting_for(hold.tx_id)), "the first job to reach the held entry")
        job_tx = hold.waiting_for(hold.tx_id)[0]
        edit.start()
        hold.wait_until(
            lambda: not edit.is_alive() or bool(hold.waiting_for(job_tx)), "the second edit to end or wait for the job"
        )
    finally:
        hold.release()
    edit.join(60)
    assert len(answers) == 2, "the second edit did not answer"
    return answers


def _rename(client: TestClient, headers: dict[str, str], p: str, name: str, body: dict[str, Any]) -> Edit:
    def run() -> dict[str, Any]:
        resp = client.patch(f"/v1/projects/{p}/entities/person/{name}", json=body, headers=headers)
        assert resp.status_code == 200, resp.text
        return dict(resp.json()["relink"])

    return run


def _delete(client: TestClient, headers: dict[str, str], p: str, name: str) -> Edit:
    def run() -> dict[str, Any]:
        resp = client.delete(f"/v1/projects/{p}/entities/person/{name}", headers=headers)
        assert resp.status_code == 202, resp.text
        return dict(resp.json())

    return run


def _persons(client: TestClient, headers: dict[str, str], entry: str) -> tuple[list[str], list[str]]:
    """The persons the entry lists (its record) and those it is linked to, as `headers` sees them."""
    got = client.get(f"/v1/entries/{entry}", headers=headers).json()
    return list(got["persons"]), list(got["read_only"]["linked"]["persons"])


def _names(client: TestClient, headers: dict[str, str], p: str) -> set[str]:
    return {e["name"] for e in client.get(f"/v1/projects/{p}/entities", headers=headers).json()}


@pytest.mark.parametrize(
    ("first", "second", "runs"), [("rename", "rename", RUNS), ("rename", "delete", RUNS), ("aliases", "rename", 5)]
)
def test_an_edit_made_while_the_previous_job_writes_is_never_reverted(
    client: TestClient,
    auth: Headers,
    graph: Graph,
    ingest: Callable[..., IngestReport],
    prefix: str,
    first: str,
    second: str,
    runs: int,
) -> None:
    """Pep is renamed Josep (or given the alias Pepito); while that job writes, Ana renames him José keeping only
    Pep as an alias (Josep was a slip), or deletes Josep. Every run must end with what Ana sees showing José (or
    nobody), and Bea's hidden entry linked as if the last edit had always been so."""
    reverted = []
    for run, p in enumerate(_projects(graph, ingest, prefix, runs)):
        ana, bea = auth(f"{p}-ana"), auth(f"{p}-bea")
        if first == "rename":
            edit, name = _rename(client, ana, p, "Pep", {"name": "Josep"}), "Josep"
        else:
            edit, name = _rename(client, ana, p, "Pep", {"aliases": ["Pepito"]}), "Pep"
        if second == "rename":
            then = _rename(client, ana, p, name, {"name": "José", "aliases": ["Pep"]})
        else:
            then = _delete(client, ana, p, name)
        for job in _race(client, graph, f"{p}/a-hidden", edit, then):
            wait_relinked(client, ana, p, job["job_id"])
        seen, known, hidden = (
            _persons(client, ana, f"{p}/b-seen"),
            _names(client, ana, p),
            _persons(client, bea, f"{p}/a-hidden"),
        )
        if second == "rename":
            ok = seen == (["José"], ["José"]) and known == {"José"} and hidden == (["Pep"], ["José"])
        else:
            ok = seen == ([], []) and not known and hidden == (["Pep"], ["Pep"])
        if not ok:
            reverted.append((run, seen, sorted(known), hidden))
    assert not reverted, f"{len(reverted)} of {runs} runs lost the second edit: {reverted[:3]}"


MENTIONS = "MATCH (e:Entry {project_id: $p})-[m:MENTIONS]->(n) RETURN e.id AS entry, n.id AS id, m.name AS name"


def test_a_pass_an_edit_overtakes_starts_over_and_its_numbers_go_on(
    graph: Graph, embedder: CheckedEmbedder, ingest: Callable[..., IngestReport], prefix: str
) -> None:
    """Ana renames Pep when the job's first batch is done (from the job's own progress hook): the pass linked its
    next batch under the old name, so its write is refused, and a new pass links every entry under the new one.
    The job's numbers go on: `done` never goes back, each rewritten entry counts once."""
    p, ana = f"{prefix}big", f"{prefix}big-ana"
    set_member(graph, p, ana, "owner")
    upsert_entity(graph, p, "person", "Pep", audience="circle", author_id=ana)
    rows = [
        {
            "entry_id": f"{p}/e{i:03d}",
            "project_id": p,
            "author": ana,
            "intimacy": "circle",
            "text": "Otro paseo con Pep.",
            "persons": ["Pep"],
            "occurred_on": "2011-05-01",
        }
        for i in range(BATCH + 6)
    ]
    assert not ingest(rows).errors
    viewer = Viewer(user_id=ana)
    pep = find_for_edit(graph, p, viewer, "person", "Pep")
    assert pep is not None
    reported: list[tuple[int, int, int]] = []

    def progress(done: int, total: int, relinked: int) -> None:
        reported.append((done, total, relinked))
        if done == BATCH and len(reported) == 2:
            rename_entity(graph, p, pep, viewer, "Josep", None)

    total, relinked = relink_project(graph, embedder, p, progress=progress, viewer=Viewer(user_id=ana))
    links = graph.read(MENTIONS, {"p": p})
    assert {(r["id"], r["name"]) for r in links} == {(pep.id, "Josep")} and len(links) == len(rows)
    assert (total, relinked) == (len(rows), len(rows)), "every entry now names Josep, counted once"
    dones = [d for d, _, _ in reported]
    assert dones == sorted(dones) and reported[-1] == (len(rows), len(rows), len(rows))
    assert p not in relink_epochs.behind(graph), "the pass that finished covered the rename"


def test_an_edit_whose_job_was_lost_is_re_linked_when_the_service_starts(
    graph: Graph, embedder: CheckedEmbedder, ingest: Callable[..., IngestReport], prefix: str
) -> None:
    """A rename commits and its process dies before its job runs (here: no job is started). The graph knows the
    project's names moved past its last completed pass, and a service starting finds it and re-links it, Bea's
    hidden entry included."""
    p = _projects(graph, ingest, prefix, 1)[0]
    assert p not in relink_epochs.behind(graph), "Pep was declared before any entry: nothing to re-link"
    viewer = Viewer(user_id=f"{p}-ana")
    pep = find_for_edit(graph, p, viewer, "person", "Pep")
    assert pep is not None
    rename_entity(graph, p, pep, viewer, "Josep", None)
    assert p in relink_epochs.behind(graph)
    hidden = [r["name"] for r in graph.read(MENTIONS, {"p": p}) if r["entry"] == f"{p}/a-hidden"]
    assert hidden == ["Pep"], "the rename changed what Ana sees; the rest waits for re-linking"

    jobs = RelinkJobs(graph, lambda: embedder)
    for job in jobs.resume([q for q in relink_epochs.behind(graph) if q.startswith(prefix)]):
        deadline = time.monotonic() + 60
        while (state := jobs.get(job.job_id)) is not None and state.status not in ("done", "failed"):
            assert time.monotonic() < deadline, "the resumed job did not finish"
            time.sleep(0.05)
        assert state is not None and state.status == "done", state
    assert p not in relink_epochs.behind(graph)
    assert {r["name"] for r in graph.read(MENTIONS, {"p": p})} == {"Josep"}


def test_edits_at_the_same_moment_each_move_the_names_epoch(graph: Graph, prefix: str) -> None:
    """Every edit must move the epoch, even two committed at once: a job that read the epoch between them would
    otherwise hold a number the second edit did not change, and write under names that edit replaced."""
    project = f"{prefix}epochs"
    start = relink_epochs.current(graph, project)
    threads, rounds = 6, 5
    barrier = threading.Barrier(threads)

    def edits() -> None:
        barrier.wait()
        for _ in range(rounds):
            graph.transact(lambda tx: relink_epochs.bump(tx, project))

    workers = [threading.Thread(target=edits) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert relink_epochs.current(graph, project) == start + threads * rounds
