"""A small family for the web app's tests: owner, coauthor and reader, one entry per author and intimacy level, each
with a word of its own (so a page can be searched for every entry it must not show), and the browser session of a
member signed in through the development form."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from graph.db import Graph, get_graph
from graph.members import set_member
from graph.settings import Settings, get_settings
from graph.visibility import INTIMACY_LEVELS
from graph.web_sessions import add_link

AUTHORS = ("owner", "coauthor")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@dataclass(frozen=True)
class WebWorld:
    project: str
    users: dict[str, str]  # role -> user id
    words: dict[tuple[str, str], str]  # (author role, level) -> the entry's own word
    entry_ids: dict[tuple[str, str], str]

    def visible_to(self, role: str) -> set[tuple[str, str]]:
        """What the intimacy rules let `role` see: private to its author, intimate to authors and the owner."""
        seen = set()
        for author, level in self.words:
            if level == "private" and author != role:
                continue
            if level == "intimate" and role == "reader":
                continue
            seen.add((author, level))
        return seen


def build_world(graph: Graph, prefix: str, ingest: Callable[..., Any]) -> WebWorld:
    project = f"{prefix}web"
    users = {role: f"{prefix}{role}" for role in ("owner", "coauthor", "reader")}
    for role, user in users.items():
        set_member(graph, project, user, role)
    words, ids, rows = {}, {}, []
    for n, author in enumerate(AUTHORS):
        for m, level in enumerate(INTIMACY_LEVELS):
            word = f"palabra{author}{level}"
            entry_id = f"{project}/{author}-{level}"
            words[(author, level)], ids[(author, level)] = word, entry_id
            rows.append(
                {
                    "entry_id": entry_id,
                    "project_id": project,
                    "author": users[author],
                    "intimacy": level,
                    "occurred_on": f"{2005 + n}-0{m + 3}-1{m}",
                    "title": f"Título {word}",
                    "text": f"Fuimos a Cádiz con Marta y {word} lo recuerda todo de aquel viaje en tren.",
                    "persons": ["Marta", f"Persona{word}"],
                    "places": ["Cádiz"],
                }
            )
    assert not ingest(rows).errors
    return WebWorld(project, users, words, ids)


def form_csrf(page: httpx.Response) -> str:
    """The CSRF token a page's forms carry (the session's, or before sign-in the pre-session's)."""
    found = CSRF.findall(page.text)
    assert found, page.text[:300]
    return str(found[-1])


def local_link(graph: Graph, settings: Settings) -> str:
    """The path of a fresh one-time sign-in link, as `memora serve` prints it."""
    return f"/signin/local?key={add_link(graph, settings)}"


def signed_in(url: str, user: str, graph: Graph | None = None) -> httpx.Client:
    """A browser-like client (cookies kept, redirects not followed) that opened a sign-in link and signed in as `user`
    by the member picker."""
    client = httpx.Client(base_url=url, follow_redirects=False, timeout=60)
    link = client.get(local_link(graph or get_graph(get_settings()), get_settings()))
    assert link.status_code == 303 and link.headers["location"] == "/signin", link.text[:500]
    form = client.get("/signin")
    token = CSRF.search(form.text)
    assert token, form.text[:500]
    answer = client.post("/signin/member", data={"user": user, "csrf": token.group(1)})
    assert answer.status_code == 303 and answer.headers["location"] == "/", answer.text[:500]
    return client


CHAPTER = "Viaje a Sevilla"


def add_chapter(world: WebWorld, ingest: Callable[..., Any]) -> None:
    """A declared chapter of the owner's, one entry per level, each with its own word (`testigo<level>`)."""
    rows = [
        {
            "entry_id": f"{world.project}/trip-{level}",
            "project_id": world.project,
            "author": world.users["owner"],
            "intimacy": level,
            "period": CHAPTER,
            "occurred_on": f"2007-04-1{n}",
            "text": f"En Sevilla con Marta: testigo{level} del viaje en tren.",
        }
        for n, level in enumerate(INTIMACY_LEVELS)
    ]
    assert not ingest(rows).errors
