"""The web app's sign-in at the edges: only the host names the service serves, no state change from another origin,
the member picker only through a one-time link, and sessions that are neither API tokens nor outlive a sign-out,
a role change or a removal."""

from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest

from api import auth
from graph import generations
from graph.db import Graph
from graph.export import ExportScope, export_lines
from graph.member_people import member_persons
from graph.members import LastOwner, change_member, members_of, role_of
from graph.settings import Settings, get_settings
from graph.web_sessions import add_link, open_session, session_user, use_link
from inference.embedders import CheckedEmbedder
from tests.serving import serve
from tests.web_world import CSRF, WebWorld, local_link, signed_in

REBOUND = "attacker.example"


def _port(url: str) -> str:
    return url.rsplit(":", 1)[1]


def test_a_page_under_another_name_is_refused_before_anything_is_read(
    served: str, world: WebWorld, settings: Settings
) -> None:
    """DNS rebinding: the attacker's name resolves to 127.0.0.1, so its page reaches this port under its own name."""
    foreign = {"host": f"{REBOUND}:{_port(served)}"}
    with httpx.Client(base_url=served, follow_redirects=False) as browser:
        for path in ("/signin", "/", f"/p/{world.project}", "/health", "/openapi.json"):
            answer = browser.get(path, headers=foreign)
            assert answer.status_code == 421, path
            assert world.users["owner"] not in answer.text and "MEMORA_ALLOWED_HOSTS" in answer.json()["detail"]
        token = auth.issue(settings, world.users["owner"])
        search = browser.post(
            "/v1/search",
            headers={**foreign, "authorization": f"Bearer {token}"},
            json={"q": "Cádiz", "project_id": world.project},
        )
        assert search.status_code == 421
        for name in ("127.0.0.1", "localhost", "[::1]"):
            assert browser.get("/signin", headers={"host": f"{name}:{_port(served)}"}).status_code == 200, name


def test_a_deployment_names_the_hosts_it_serves(settings: Settings, graph: Graph, embedder: CheckedEmbedder) -> None:
    deployed = settings.model_copy(update={"allowed_hosts": "*.family.example, memora.example"})
    with serve(deployed, graph, embedder) as url, httpx.Client(base_url=url, follow_redirects=False) as client:

        def status(host: str) -> int:
            return client.get("/health", headers={"host": host}).status_code

        assert status("memora.example") == 200 and status("MEMORA.example.:443") == 200
        assert status("album.family.example") == 200
        assert status("family.example.evil.test") == 421 and status("evilfamily.example") == 421
        assert status("localhost") == 421, "the loopback names are the default list, not always served"
        assert status("10.0.0.5:8077") == 200, "an address is never another site's name"


def test_a_state_change_from_another_origin_is_refused(
    served: str, world: WebWorld, settings: Settings, graph: Graph
) -> None:
    with httpx.Client(base_url=served, follow_redirects=False) as browser:
        assert browser.get(local_link(graph, settings)).status_code == 303
        csrf = CSRF.search(browser.get("/signin").text)
        assert csrf
        form = {"user": world.users["owner"], "csrf": csrf.group(1)}
        port = _port(served)
        for headers in (
            {"origin": f"http://{REBOUND}:{port}"},
            {"origin": "http://127.0.0.1:9999"},  # another service on this machine: same site, not same origin
            {"origin": "null"},
            {"sec-fetch-site": "cross-site"},
            {"sec-fetch-site": "same-site"},
        ):
            refused = browser.post("/signin/member", data=form, headers=headers)
            assert refused.status_code == 403, headers
            assert "memora_session" not in refused.headers.get("set-cookie", "")
            assert "another site" in refused.json()["detail"]
        same = browser.post("/signin/member", data=form, headers={"origin": served, "sec-fetch-site": "same-origin"})
        assert same.status_code == 303 and "memora_session=" in same.headers["set-cookie"]


def test_the_member_picker_needs_a_link_used_once_by_this_browser(
    served: str, world: WebWorld, settings: Settings, graph: Graph
) -> None:
    with httpx.Client(base_url=served, follow_redirects=False) as stranger:
        page = stranger.get("/signin")
        assert world.users["owner"] not in page.text and 'action="/signin/member"' not in page.text
        assert "memora signin-link" in page.text, "the page says how to get a link"
        csrf = CSRF.search(page.text)
        assert csrf
        refused = stranger.post("/signin/member", data={"user": world.users["owner"], "csrf": csrf.group(1)})
        assert refused.status_code == 403 and "memora_session" not in refused.headers.get("set-cookie", "")
    with httpx.Client(base_url=served, follow_redirects=False, cookies={"memora_local": "x" * 43}) as forged:
        assert world.users["owner"] not in forged.get("/signin").text

    link = local_link(graph, settings)
    with httpx.Client(base_url=served, follow_redirects=False) as first:
        opened = first.get(link)
        assert opened.status_code == 303 and opened.headers["location"] == "/signin"
        cookie = opened.headers["set-cookie"].lower()
        assert "memora_local=" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        assert world.users["owner"] in first.get("/signin").text
    with httpx.Client(base_url=served, follow_redirects=False) as second:
        again = second.get(link)
        assert again.headers["location"] == "/signin?error=bad_link", "a link opens one browser only"
        assert world.users["owner"] not in second.get("/signin").text


def test_a_link_expires_and_is_spent_once_even_when_opened_twice(graph: Graph, settings: Settings) -> None:
    at = time.time()
    key = add_link(graph, settings, now=at)
    assert use_link(graph, settings, key, now=at + settings.web_signin_link_seconds + 1) is None
    fresh = add_link(graph, settings)
    pickers = [use_link(graph, settings, fresh) for _ in range(3)]
    assert sum(p is not None for p in pickers) == 1
    for _ in range(3):
        won = _opened_at_once(graph, settings, add_link(graph, settings), browsers=6)
        assert len(won) == 6 and sum(p is not None for p in won) == 1, "six browsers at once: one picker"
    assert use_link(graph, settings, "not-a-key") is None


def _opened_at_once(graph: Graph, settings: Settings, key: str, browsers: int) -> list[str | None]:
    """The pickers `browsers` threads get, opening one link at the same moment."""
    barrier = threading.Barrier(browsers)
    won: list[str | None] = []

    def open_it() -> None:
        barrier.wait()
        won.append(use_link(graph, settings, key))

    threads = [threading.Thread(target=open_it) for _ in range(browsers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return won


def test_the_local_sign_in_is_not_offered_on_a_bind_beyond_this_machine(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder, world: WebWorld
) -> None:
    wide = settings.model_copy(update={"api_host": "0.0.0.0"})
    with serve(wide, graph, embedder) as url, httpx.Client(base_url=url, follow_redirects=False) as browser:
        assert browser.get(local_link(graph, settings)).headers["location"] == "/signin?error=bad_link"
        page = browser.get("/signin")
        assert world.users["owner"] not in page.text and "memora signin-link" not in page.text


def test_a_session_is_not_a_token_and_a_token_is_not_a_session(
    served: str, world: WebWorld, settings: Settings
) -> None:
    browser = signed_in(served, world.users["owner"])
    sid = browser.cookies["memora_session"]
    assert not sid.startswith(auth.PREFIX) and "." not in sid
    api = httpx.post(
        f"{served}/v1/search",
        headers={"authorization": f"Bearer {sid}"},
        json={"q": "Cádiz", "project_id": world.project},
    )
    assert api.status_code == 401
    token = auth.issue(settings, world.users["owner"])
    with httpx.Client(base_url=served, follow_redirects=False, cookies={"memora_session": token}) as replay:
        assert replay.get(f"/p/{world.project}").headers["location"] == "/signin"
    with httpx.Client(base_url=served, follow_redirects=False) as by_token:
        csrf = CSRF.search(by_token.get("/signin").text)
        assert csrf
        assert by_token.post("/signin/token", data={"token": token, "csrf": csrf.group(1)}).status_code == 303
        assert token not in by_token.cookies.get("memora_session", ""), "the cookie never holds the token"
        assert by_token.get(f"/p/{world.project}").status_code == 200


def _copy_of(served: str, browser: httpx.Client) -> httpx.Client:
    return httpx.Client(
        base_url=served, follow_redirects=False, cookies={"memora_session": browser.cookies["memora_session"]}
    )


def test_signing_out_ends_the_session_everywhere_its_cookie_was_copied(served: str, world: WebWorld) -> None:
    browser = signed_in(served, world.users["reader"])
    copy = _copy_of(served, browser)
    assert copy.get(f"/p/{world.project}").status_code == 200
    csrf = CSRF.search(browser.get(f"/p/{world.project}").text)
    assert csrf
    assert browser.post("/signout", data={"csrf": csrf.group(1)}).status_code == 303
    assert copy.get(f"/p/{world.project}").headers["location"] == "/signin"


@pytest.mark.parametrize("change", ["role", "removal"])
def test_a_role_change_or_a_removal_ends_the_members_sessions(
    served: str, world: WebWorld, graph: Graph, change: str
) -> None:
    browser = signed_in(served, world.users["coauthor"])
    other = signed_in(served, world.users["reader"])
    assert browser.get(f"/p/{world.project}").status_code == 200
    change_member(graph, world.project, world.users["coauthor"], "reader" if change == "role" else None)
    assert browser.get(f"/p/{world.project}").headers["location"] == "/signin"
    assert other.get(f"/p/{world.project}").status_code == 200, "another member's session goes on"


def test_a_session_ends_when_idle_and_at_its_latest_end_however_used(
    graph: Graph, settings: Settings, prefix: str
) -> None:
    short = settings.model_copy(update={"web_session_idle_seconds": 600, "web_session_max_seconds": 1800})
    # The clock starts at the real now: a session dated in the past would be swept away by any sign-in that another
    # test makes meanwhile, since a sweep ends every session expired by the real now.
    start = time.time()
    idle = open_session(graph, short, f"{prefix}someone", now=start)
    assert session_user(graph, short, idle, now=start + 599) == f"{prefix}someone"
    assert session_user(graph, short, idle, now=start + 599 + 601) is None, "idle past the limit"
    busy = open_session(graph, short, f"{prefix}someone", now=start)
    for minute in range(1, 30):
        assert session_user(graph, short, busy, now=start + minute * 60) == f"{prefix}someone", "renewed on use"
    assert session_user(graph, short, busy, now=start + 1801) is None, "never past the latest end"


# Memberships no write path makes, which a database may still hold: an edge with no role, and two edges at once.
ODD_MEMBERS = """
MATCH (p:Project {id: $project_id})
MERGE (n:User {id: $no_role}) CREATE (n)-[:MEMBER_OF]->(p)
MERGE (t:User {id: $two_roles}) CREATE (t)-[:MEMBER_OF {role: 'reader'}]->(p), (t)-[:MEMBER_OF {role: 'coauthor'}]->(p)
"""


def test_a_membership_with_no_role_or_two_edges_is_named_by_the_access_it_gives(
    served: str, world: WebWorld, graph: Graph, prefix: str
) -> None:
    no_role, two_roles = f"{prefix}norole", f"{prefix}tworoles"
    graph.write(ODD_MEMBERS, {"project_id": world.project, "no_role": no_role, "two_roles": two_roles})
    expected = {**{user: role for role, user in world.users.items()}, no_role: "reader", two_roles: "coauthor"}
    assert {m["user_id"]: m["role"] for m in members_of(graph, world.project)} == expected
    assert role_of(graph, world.project, no_role) == "reader" and role_of(graph, world.project, two_roles) == "coauthor"
    keyed = {user: generations.read(graph, [world.project], user, fresh=True) for user in (no_role, two_roles)}
    assert [(r["role"], r["inner"] is None) for r in keyed[no_role]] == [("reader", True)], "one row, a reader's key"
    assert [(r["role"], r["inner"] is None) for r in keyed[two_roles]] == [("coauthor", False)]
    listed = [(m["user_id"], m["role"]) for m in member_persons(graph, world.project)]
    exported = [json.loads(x) for x in export_lines(graph, world.project, ExportScope())]
    exported_members = [(m["user_id"], m["role"]) for m in exported if m.get("memora_record") == "member"]
    assert listed == exported_members == sorted(expected.items())
    browser = signed_in(served, no_role, graph)
    home = browser.get("/?lang=en", follow_redirects=True)
    browser.close()
    assert home.status_code == 200 and world.project in str(home.url) + home.text
    link = local_link(graph, get_settings())
    with httpx.Client(base_url=served, follow_redirects=False) as chooser:
        chooser.get(link)
        picker = chooser.get("/signin?lang=en")
        assert picker.status_code == 200
        for user, role in ((no_role, "reader"), (two_roles, "coauthor")):
            named = rf'value="{re.escape(user)}">{re.escape(user)} <span class="role">{role}</span>'
            assert re.search(named, picker.text), user


def test_an_owner_with_two_edges_is_one_owner_and_still_the_last(graph: Graph, world: WebWorld) -> None:
    owner = world.users["owner"]
    graph.write(
        "MATCH (u:User {id: $u})-[:MEMBER_OF]->(p:Project {id: $p}) CREATE (u)-[:MEMBER_OF {role: 'owner'}]->(p)",
        {"u": owner, "p": world.project},
    )
    listed = [m for m in members_of(graph, world.project) if m["user_id"] == owner]
    assert listed == [{"user_id": owner, "role": "owner"}]
    with pytest.raises(LastOwner):
        change_member(graph, world.project, owner, "reader")
    assert role_of(graph, world.project, owner) == "owner"
