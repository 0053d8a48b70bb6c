"""JWTs from the application in front: keys generated here, a JWKS served by a local http.server on loopback, the app
on the real Neo4j. Valid RS256, ES256 and HS256 tokens reach a member's data; forged, expired, not-yet-valid,
wrong-audience, wrong-issuer, claim-less, unsigned (`alg: none`) and algorithm-confused tokens are 401; a rotated key
is picked up, unknown `kid`s do not hammer the issuer, and an issuer that is down answers 503 within its timeout."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from fastapi.testclient import TestClient
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from api.app import Services, create_app
from api.auth import issue
from api.jwt_auth import JwtConfigError, looks_like_jwt
from graph.db import Graph
from graph.members import set_member
from graph.settings import Settings
from inference.embedders import CheckedEmbedder

ISSUER = "https://login.example.test/"
AUDIENCE = "memora-graph"
HS_SECRET = "a-shared-secret-of-at-least-32-bytes!!"

Key = Any


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def rsa_key() -> Key:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def ec_key() -> Key:
    return ec.generate_private_key(ec.SECP256R1())


def jwk_of(private: Key, kid: str) -> dict[str, Any]:
    """The public half as a JWK, as an issuer publishes it."""
    if isinstance(private, rsa.RSAPrivateKey):
        jwk = RSAAlgorithm.to_jwk(private.public_key(), as_dict=True)
        jwk["alg"] = "RS256"
    else:
        jwk = ECAlgorithm.to_jwk(private.public_key(), as_dict=True)
        jwk["alg"] = "ES256"
    return {**jwk, "kid": kid, "use": "sig"}


def claims(user: str | None, **over: Any) -> dict[str, Any]:
    now = int(time.time())
    body: dict[str, Any] = {"iss": ISSUER, "aud": AUDIENCE, "iat": now, "nbf": now, "exp": now + 600}
    if user is not None:
        body["sub"] = user
    body.update(over)
    return {k: v for k, v in body.items() if v is not None}


def signed(private: Key, kid: str, alg: str, user: str | None, **over: Any) -> str:
    return jwt.encode(claims(user, **over), private, algorithm=alg, headers={"kid": kid})


class Jwks:
    """A JWKS endpoint on loopback whose key list the test changes; counts the fetches it answers."""

    def __init__(self) -> None:
        self.keys: list[dict[str, Any]] = []
        self.hits = 0
        self.failing = False
        jwks = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                jwks.hits += 1
                status, body = (500, b"{}") if jwks.failing else (200, json.dumps({"keys": jwks.keys}).encode())
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/.well-known/jwks.json"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def keys() -> dict[str, Key]:
    return {"rsa": rsa_key(), "rsa2": rsa_key(), "ec": ec_key(), "intruder": rsa_key()}


@pytest.fixture()
def jwks(keys: dict[str, Key]) -> Iterator[Jwks]:
    server = Jwks()
    server.keys = [jwk_of(keys["rsa"], "rsa-1"), jwk_of(keys["ec"], "ec-1")]
    yield server
    server.close()


@pytest.fixture()
def jwt_settings(settings: Settings, jwks: Jwks) -> Settings:
    return settings.model_copy(
        update={
            "auth_issuer": ISSUER,
            "auth_audience": AUDIENCE,
            "auth_jwks_url": jwks.url,
            "auth_hs256_secret": HS_SECRET,
            "auth_jwks_timeout_seconds": 1.0,
            "auth_leeway_seconds": 0,
        }
    )


@pytest.fixture()
def app_for(graph: Graph, embedder: CheckedEmbedder) -> Iterator[Callable[[Settings], TestClient]]:
    clients: list[TestClient] = []

    def build(cfg: Settings) -> TestClient:
        client = TestClient(create_app(Services(cfg, graph=graph, embedder=embedder)))
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


@pytest.fixture()
def member(graph: Graph, prefix: str) -> dict[str, str]:
    """A project with one reader (no entries: for checks that stop at the token)."""
    project, user = f"{prefix}jwt", f"{prefix}jwt-reader"
    set_member(graph, project, user, "reader")
    return {"project": project, "user": user}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def projects_of(client: TestClient, token: str) -> Any:
    return client.get("/v1/projects", headers=bearer(token))


def refused(resp: Any, reason: str) -> None:
    assert resp.status_code == 401, resp.text
    assert resp.headers.get("www-authenticate") == "Bearer"
    assert reason in resp.json()["detail"], resp.json()


# --- accepted ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "kid", "alg"), [("rsa", "rsa-1", "RS256"), ("ec", "ec-1", "ES256")])
def test_asymmetric_jwts_reach_the_members_entries(
    app_for: Callable[[Settings], TestClient],
    jwt_settings: Settings,
    family: dict[str, str],
    keys: dict[str, Key],
    key: str,
    kid: str,
    alg: str,
) -> None:
    client = app_for(jwt_settings)
    owner = signed(keys[key], kid, alg, family["owner"])
    resp = client.get(f"/v1/entries/{family['project']}/owner-private", headers=bearer(owner))
    assert resp.status_code == 200, resp.text
    assert "Zanahoria secreta private" in resp.json()["text"]
    # roles still come from the graph: the reader's JWT does not open the owner's private entry
    reader = signed(keys[key], kid, alg, family["reader"])
    assert client.get(f"/v1/entries/{family['project']}/owner-private", headers=bearer(reader)).status_code == 404
    hits = client.post("/v1/search", json={"q": "zanahoria", "project_id": family["project"]}, headers=bearer(reader))
    assert hits.status_code == 200, hits.text
    levels = {h["intimacy_level"] for h in hits.json()["results"]}
    assert levels and levels <= {"circle", "public"}


def test_hs256_with_the_shared_secret(
    app_for: Callable[[Settings], TestClient], settings: Settings, member: dict[str, str]
) -> None:
    cfg = settings.model_copy(update={"auth_issuer": ISSUER, "auth_audience": AUDIENCE, "auth_hs256_secret": HS_SECRET})
    client = app_for(cfg)
    good = jwt.encode(claims(member["user"]), HS_SECRET, algorithm="HS256")
    resp = projects_of(client, good)
    assert resp.status_code == 200, resp.text
    assert [p["project_id"] for p in resp.json()] == [member["project"]]
    forged = jwt.encode(claims(member["user"]), "another-secret-that-is-also-32-bytes-long", algorithm="HS256")
    refused(projects_of(client, forged), "bad signature")
    # no JWKS configured: an RS256 token has nothing to be checked against
    refused(
        projects_of(client, jwt.encode(claims(member["user"]), rsa_key(), algorithm="RS256", headers={"kid": "rsa-1"})),
        "algorithm not accepted",
    )


def test_user_id_comes_from_the_configured_claim(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    client = app_for(jwt_settings.model_copy(update={"auth_user_claim": "memora_user"}))
    token = signed(keys["rsa"], "rsa-1", "RS256", "someone-else", memora_user=member["user"])
    assert [p["project_id"] for p in projects_of(client, token).json()] == [member["project"]]
    refused(projects_of(client, signed(keys["rsa"], "rsa-1", "RS256", member["user"])), "'memora_user' claim")


def test_development_tokens_keep_working_beside_jwts(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str]
) -> None:
    client = app_for(jwt_settings)
    resp = projects_of(client, issue(jwt_settings, member["user"]))
    assert resp.status_code == 200, resp.text
    assert [p["project_id"] for p in resp.json()] == [member["project"]]


# --- refused -------------------------------------------------------------------------------------------------------


def test_bad_jwts_are_401(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    client = app_for(jwt_settings)
    user, rsa_, now = member["user"], keys["rsa"], int(time.time())
    cases = {
        "bad signature": signed(keys["intruder"], "rsa-1", "RS256", user),  # forged: right kid, wrong key
        "token expired": signed(rsa_, "rsa-1", "RS256", user, iat=now - 7200, nbf=now - 7200, exp=now - 3600),
        "not yet valid": signed(rsa_, "rsa-1", "RS256", user, nbf=now + 3600),
        "audience is not this service": signed(rsa_, "rsa-1", "RS256", user, aud="another-service"),
        "issuer is not the configured one": signed(rsa_, "rsa-1", "RS256", user, iss="https://evil.example/"),
        "'sub' claim": signed(rsa_, "rsa-1", "RS256", None),
        "lacks the 'exp' claim": signed(rsa_, "rsa-1", "RS256", user, exp=None),
        "lacks the 'aud' claim": signed(rsa_, "rsa-1", "RS256", user, aud=None),
        "unknown signing key": signed(rsa_, "no-such-kid", "RS256", user),
        "no key id": jwt.encode(claims(user), rsa_, algorithm="RS256"),
        "does not match its key": signed(keys["ec"], "rsa-1", "ES256", user),  # ES256 header on an RSA kid
        "malformed JWT": "bm90LWpzb24.eyJzdWIiOiJ4In0.c2ln",
    }
    for reason, token in cases.items():
        assert looks_like_jwt(token), reason
        refused(projects_of(client, token), reason)


@pytest.mark.parametrize("alg", ["none", "None", "NONE"])
def test_unsigned_jwts_are_refused(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], alg: str
) -> None:
    client = app_for(jwt_settings)
    head = b64(json.dumps({"alg": alg, "typ": "JWT"}).encode())
    body = b64(json.dumps(claims(member["user"])).encode())
    for token in (f"{head}.{body}.", f"{head}.{body}.c2lnbmF0dXJl"):
        refused(projects_of(client, token), "alg none")


@pytest.mark.parametrize("hs_configured", [True, False])
def test_hs256_signed_with_the_rsa_public_key_is_refused(
    app_for: Callable[[Settings], TestClient],
    jwt_settings: Settings,
    member: dict[str, str],
    keys: dict[str, Key],
    hs_configured: bool,
) -> None:
    """Algorithm confusion: the public key (which anyone can fetch from the JWKS) used as an HMAC secret."""
    cfg = jwt_settings if hs_configured else jwt_settings.model_copy(update={"auth_hs256_secret": None})
    client = app_for(cfg)
    pem = (
        keys["rsa"]
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    head = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}).encode())
    body = b64(json.dumps(claims(member["user"])).encode())
    signature = b64(hmac.new(pem, f"{head}.{body}".encode(), hashlib.sha256).digest())
    refused(
        projects_of(client, f"{head}.{body}.{signature}"),
        "bad signature" if hs_configured else "algorithm not accepted",
    )


def test_allow_list_comes_from_configuration(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    client = app_for(jwt_settings.model_copy(update={"auth_algorithms": "ES256"}))
    assert projects_of(client, signed(keys["ec"], "ec-1", "ES256", member["user"])).status_code == 200
    refused(projects_of(client, signed(keys["rsa"], "rsa-1", "RS256", member["user"])), "algorithm not accepted")
    refused(
        projects_of(client, jwt.encode(claims(member["user"]), HS_SECRET, algorithm="HS256")), "algorithm not accepted"
    )


def test_jwts_are_refused_when_not_configured(
    app_for: Callable[[Settings], TestClient], settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    off = settings.model_copy(update={"auth_jwks_url": None, "auth_hs256_secret": None})
    client = app_for(off)
    refused(projects_of(client, signed(keys["rsa"], "rsa-1", "RS256", member["user"])), "JWTs are not accepted")
    refused(
        projects_of(client, jwt.encode(claims(member["user"]), HS_SECRET, algorithm="HS256")), "JWTs are not accepted"
    )


def test_bad_jwts_spend_the_addresss_failure_budget(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    client = app_for(jwt_settings.model_copy(update={"rate_auth_failures_per_minute": 3}))
    forged = signed(keys["intruder"], "rsa-1", "RS256", member["user"])
    for _ in range(3):
        assert projects_of(client, forged).status_code == 401
    good = signed(keys["rsa"], "rsa-1", "RS256", member["user"])
    resp = projects_of(client, good)
    assert resp.status_code == 429, resp.text
    assert int(resp.headers["retry-after"]) >= 1


def test_incomplete_configuration_is_refused_at_startup(
    settings: Settings, graph: Graph, embedder: CheckedEmbedder
) -> None:
    base = {"auth_issuer": ISSUER, "auth_audience": AUDIENCE, "auth_hs256_secret": HS_SECRET}
    cases: list[tuple[dict[str, Any], str]] = [
        ({"auth_audience": None}, "MEMORA_AUTH_AUDIENCE"),
        ({"auth_issuer": None}, "MEMORA_AUTH_ISSUER"),
        ({"auth_hs256_secret": "short"}, "at least 32 bytes"),
        ({"auth_algorithms": "RS256,none"}, "none not supported"),
        ({"auth_algorithms": "RS256"}, "no JWT algorithm is usable"),  # RS256 but no JWKS URL
        ({"auth_jwks_url": "file:///etc/passwd"}, "http:// or https://"),
    ]
    for update, reason in cases:
        with pytest.raises(JwtConfigError, match=reason):
            create_app(Services(settings.model_copy(update={**base, **update}), graph=graph, embedder=embedder))


# --- the JWKS: rotation, rate-limited refetch, outages ------------------------------------------------------------


def test_key_rotation_and_unknown_kids_refetch_at_most_once_per_interval(
    app_for: Callable[[Settings], TestClient],
    jwt_settings: Settings,
    member: dict[str, str],
    keys: dict[str, Key],
    jwks: Jwks,
) -> None:
    client = app_for(jwt_settings.model_copy(update={"auth_jwks_refetch_seconds": 30}))
    now = [1000.0]
    client.app.state.jwt.jwks.clock = lambda: now[0]  # type: ignore[attr-defined]
    user = member["user"]
    assert projects_of(client, signed(keys["rsa"], "rsa-1", "RS256", user)).status_code == 200
    assert projects_of(client, signed(keys["ec"], "ec-1", "ES256", user)).status_code == 200
    assert jwks.hits == 1, "the key set is cached"

    jwks.keys = [*jwks.keys, jwk_of(keys["rsa2"], "rsa-2")]  # the issuer publishes a new key
    rotated = signed(keys["rsa2"], "rsa-2", "RS256", user)
    now[0] += 1
    refused(projects_of(client, rotated), "unknown signing key")  # within the interval: no refetch
    refused(projects_of(client, signed(keys["rsa2"], "made-up", "RS256", user)), "unknown signing key")
    assert jwks.hits == 1, "unknown kids within the interval never reach the issuer"

    now[0] += 30
    assert projects_of(client, rotated).status_code == 200  # one refetch finds the new key
    assert jwks.hits == 2
    for i in range(5):
        refused(projects_of(client, signed(keys["rsa2"], f"made-up-{i}", "RS256", user)), "unknown signing key")
    assert jwks.hits == 2, "a stream of made-up kids is one fetch per interval at most"

    jwks.keys = [jwk_of(keys["rsa2"], "rsa-2")]  # the old key is retired
    now[0] += 301  # past the lifespan: the set is fetched again
    refused(projects_of(client, signed(keys["rsa"], "rsa-1", "RS256", user)), "unknown signing key")
    assert jwks.hits == 3
    assert projects_of(client, rotated).status_code == 200


def test_cached_keys_outlive_an_issuer_outage(
    app_for: Callable[[Settings], TestClient],
    jwt_settings: Settings,
    member: dict[str, str],
    keys: dict[str, Key],
    jwks: Jwks,
) -> None:
    client = app_for(jwt_settings)
    now = [1000.0]
    client.app.state.jwt.jwks.clock = lambda: now[0]  # type: ignore[attr-defined]
    token = signed(keys["rsa"], "rsa-1", "RS256", member["user"])
    assert projects_of(client, token).status_code == 200
    jwks.failing = True
    now[0] += 1000  # stale, and the refetch fails (HTTP 500)
    assert projects_of(client, token).status_code == 200, "a known key keeps working while the issuer is down"
    resp = projects_of(client, signed(keys["rsa2"], "rsa-2", "RS256", member["user"]))
    assert resp.status_code == 503, resp.text
    assert "unavailable" in resp.json()["detail"]


def test_unreachable_jwks_is_503_within_the_timeout(
    app_for: Callable[[Settings], TestClient], jwt_settings: Settings, member: dict[str, str], keys: dict[str, Key]
) -> None:
    """A JWKS host that accepts connections and never answers (the worst kind of down), then one that refuses them."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    try:
        for port in (silent.getsockname()[1], closed_port):
            cfg = jwt_settings.model_copy(
                update={"auth_jwks_url": f"http://127.0.0.1:{port}/jwks", "rate_auth_failures_per_minute": 1}
            )
            client = app_for(cfg)
            token = signed(keys["rsa"], "rsa-1", "RS256", member["user"])
            for _ in range(3):  # the first waits for the timeout (1 s), the next ones fail fast without fetching
                started = time.monotonic()
                resp = projects_of(client, token)
                assert time.monotonic() - started < 2.5
                assert resp.status_code == 503, resp.text
                assert int(resp.headers["retry-after"]) >= 1
                assert "unavailable" in resp.json()["detail"]
            # an issuer outage is not the caller's failure: the address budget (1 a minute) is intact
            assert projects_of(client, issue(cfg, member["user"])).status_code == 200
    finally:
        silent.close()


def test_serve_refuses_an_incomplete_configuration(settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    """`memora serve` says what is missing and exits 2, before starting anything."""
    from argparse import Namespace

    from api.commands.serve import cmd_serve

    bad = settings.model_copy(update={"auth_jwks_url": "https://login.example.test/jwks", "auth_issuer": None})
    assert cmd_serve(Namespace(host=None, port=None), bad) == 2
    assert "MEMORA_AUTH_ISSUER and MEMORA_AUTH_AUDIENCE are required" in capsys.readouterr().err
