"""`memora serve`'s access log keeps no credential and no search words (api/access_log.py): witness links, tokens and
long random ids in a path are replaced, and so is every query value but numbers and choices. Checked on records as
uvicorn makes and formats them, and on the log of a running `memora serve`."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import httpx
import pytest
from uvicorn.logging import AccessFormatter

from api import auth
from api.access_log import REDACTED, Redact, log_config
from bench.serving import served_by_memora
from graph.settings import Settings

ACCESS_FORMAT = '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEiLCJleHAiOjE5MDAwMDAwMDB9.c2lnbmF0dXJlLW9mLXRoZS1qd3Q"
RANDOM_ID = "Zk3Q9xT2vLmP8rW4yB6nC1dF5gH7jK0s"


def access_line(target: str) -> str:
    """The line uvicorn's access logger writes for a GET of `target` (its message and arguments, its formatter),
    with the filter `memora serve` configures."""
    logger = logging.getLogger("uvicorn.access")
    record = logger.makeRecord(
        logger.name,
        logging.INFO,
        __file__,
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", target, "1.1", 200),
        None,
    )
    assert Redact().filter(record)
    return AccessFormatter(ACCESS_FORMAT, use_colors=False).format(record)


@pytest.mark.parametrize(
    ("target", "kept", "gone"),
    [
        ("/w/{wit}", ["/w/"], ["{wit}"]),
        ("/w/{wit}/e/fam/e14", ["/e/fam/e14"], ["{wit}"]),
        ("/v1/w/{wit}/search", ["/v1/w/", "/search"], ["{wit}"]),
        ("/p/fam?q=%C2%BFqu%C3%A9+dijo+pap%C3%A1+del+piso", ["/p/fam?q="], ["dijo", "piso"]),
        ("/p/fam/entity?name=Marta&measure=pmi", ["measure=pmi", "name="], ["Marta"]),
        ("/p/fam/chapters?theme=Berl%C3%ADn&budget=2000&draft=true", ["budget=2000", "draft=true"], ["Berl"]),
        ("/p/fam/timeline?year=2008&month=7&cursor=eyJkIjoiMjAwOCJ9", ["year=2008", "month=7"], ["eyJkIjoi"]),
        ("/signin/local?key=Zk3Q9xT2vLmP8rW4", ["/signin/local?key="], ["Zk3Q9xT2vLmP8rW4"]),
        ("/v1/projects/fam/entries?person=Marta&limit=20", ["limit=20", "person="], ["Marta"]),
        ("/v1/projects/fam/entries?year=wit1.abc.def", ["year="], ["wit1.abc"]),
        ("/x/{jwt}/y", ["/x/", "/y"], ["{jwt}"]),
        ("/x/{mem}", ["/x/"], ["{mem}"]),
        ("/e/fam/{random}", ["/e/fam/"], ["{random}"]),
        ("/p/fam?{wit}=1", ["/p/fam?"], ["{wit}"]),
    ],
)
def test_access_records_keep_no_token_and_no_search_words(
    settings: Settings, target: str, kept: list[str], gone: list[str]
) -> None:
    secrets = {
        "wit": auth.issue_witness(settings, "grant-1", 3600),
        "mem": auth.issue(settings, "ana"),
        "jwt": JWT,
        "random": RANDOM_ID,
    }
    line = access_line(target.format(**secrets))
    assert line.startswith("INFO:") and '"GET ' in line and ' HTTP/1.1" 200' in line, line
    assert REDACTED in line, line
    for text in kept:
        assert text.format(**secrets) in line, line
    for text in gone:
        assert text.format(**secrets) not in line, line


@pytest.mark.parametrize(
    "target",
    ["/v1/projects/demo-family/entries", "/e/demo-family/e14", "/p/familia-garcia-3fa9c2/timeline?year=2008", "/"],
)
def test_ordinary_paths_are_logged_as_they_are(target: str) -> None:
    line = access_line(target)
    assert f'"GET {target} HTTP/1.1" 200' in line and REDACTED not in line, line


def test_memora_serve_runs_with_the_filter_on_its_access_logger() -> None:
    config = log_config()
    assert config["loggers"]["uvicorn.access"]["filters"] == ["redact"]
    assert config["filters"]["redact"]["()"] == "api.access_log.Redact"


def test_the_running_service_logs_requests_without_their_secrets(settings: Settings, tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    link = auth.issue_witness(settings, "grant-never-made", 3600)
    env = {"MEMORA_WARM_START": "false", "MEMORA_EMBED_WORKER": "false", "MEMORA_SUMMARY_WORKER": "false"}
    with served_by_memora(log, env=env, startup=120) as url:
        for path in (
            f"/w/{link}",
            f"/v1/w/{link}/entries/fam/e1",
            "/p/fam?q=palabrasecreta",
            "/p/fam/timeline?year=2008",
            "/signin/local?key=clavesecreta",
        ):
            httpx.get(url + path, timeout=30)
        printed = re.search(r"(http://127\.0\.0\.1:\d+/signin/local\?key=[\w-]+)", log.read_text(encoding="utf-8"))
        assert printed and printed.group(1).startswith(url), "memora serve prints a one-time sign-in link"
        with httpx.Client(follow_redirects=False, timeout=30) as browser:
            opened = browser.get(printed.group(1))
            assert opened.headers["location"] == "/signin" and "memora_local" in opened.cookies
        again = httpx.get(printed.group(1), follow_redirects=False, timeout=30)
        assert again.headers["location"] == "/signin?error=bad_link", "the printed link opens one browser only"
    text = log.read_text(encoding="utf-8")
    access = [line for line in text.splitlines() if re.search(r'"GET \S+ HTTP/1\.1" \d{3}', line)]
    assert any(f'"GET /w/{REDACTED} HTTP/1.1"' in line for line in access), text[-3000:]
    assert any("/p/fam/timeline?year=2008" in line for line in access), text[-3000:]
    assert any(f"/signin/local?key={REDACTED}" in line for line in access), text[-3000:]
    for secret in (link, link.split(".")[1], "palabrasecreta", "clavesecreta"):
        assert secret not in text
