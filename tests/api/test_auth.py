"""Bearer tokens: `mem1.<base64url JSON payload>.<base64url HMAC-SHA256 of prefix + payload>`, with expiry, rotation
and a separate prefix for witness links."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import stat
from pathlib import Path

import pytest

from api.auth import TokenError, issue, issue_witness, secret_of, verify, verify_witness
from graph.settings import Settings

NOW = 1_700_000_000.0


@pytest.fixture()
def keyed(settings: Settings) -> Settings:
    return settings.model_copy(update={"secret": "current-secret", "secret_previous": None})


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed(secret: str, payload: str, prefix: str = "mem1") -> str:
    """A token signed exactly as the format prescribes, whatever its payload (computed here, independently)."""
    signature = b64(hmac.new(secret.encode(), (prefix + payload).encode(), hashlib.sha256).digest())
    return f"{prefix}.{payload}.{signature}"


def payload_of(token: str) -> dict[str, object]:
    part = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def test_round_trip_names_the_user(keyed: Settings) -> None:
    token = issue(keyed, "ana@example.org", ttl_seconds=60, now=NOW)
    assert verify(keyed, token, now=NOW + 1) == "ana@example.org"
    body = payload_of(token)
    assert body["sub"] == "ana@example.org"
    assert body["exp"] == int(NOW) + 60
    assert "role" not in body, "a token names a user, never a role"


def test_token_format_is_the_documented_hmac(keyed: Settings) -> None:
    token = issue(keyed, "ana", ttl_seconds=60, now=NOW)
    assert token == signed("current-secret", token.split(".")[1])


def test_other_user_ids_round_trip(keyed: Settings) -> None:
    for user in ("u", "Zoë Ñúñez", "x" * 200, "a.b.c"):
        assert verify(keyed, issue(keyed, user, now=NOW), now=NOW) == user


@pytest.mark.parametrize("user", ["", "x" * 201])
def test_issue_refuses_bad_user_ids(keyed: Settings, user: str) -> None:
    with pytest.raises(TokenError):
        issue(keyed, user)


def test_tampered_payload_is_rejected(keyed: Settings) -> None:
    token = issue(keyed, "reader", ttl_seconds=60, now=NOW)
    prefix, payload, signature = token.split(".")
    body = payload_of(token)
    body["sub"] = "owner"
    forged = f"{prefix}.{b64(json.dumps(body, separators=(',', ':')).encode())}.{signature}"
    with pytest.raises(TokenError, match="signature"):
        verify(keyed, forged, now=NOW)


def test_tampered_expiry_is_rejected(keyed: Settings) -> None:
    token = issue(keyed, "ana", ttl_seconds=1, now=NOW)
    body = payload_of(token)
    body["exp"] = int(NOW) + 10**9
    _, _, signature = token.split(".")
    with pytest.raises(TokenError, match="signature"):
        verify(keyed, f"mem1.{b64(json.dumps(body).encode())}.{signature}", now=NOW + 100)


def test_tampered_signature_is_rejected(keyed: Settings) -> None:
    token = issue(keyed, "ana", ttl_seconds=60, now=NOW)
    last = token[-1]
    for bad in (token[:-1] + ("A" if last != "A" else "B"), token[:-4], token + "A"):
        with pytest.raises(TokenError):
            verify(keyed, bad, now=NOW)


def test_token_of_another_secret_is_rejected(keyed: Settings) -> None:
    foreign = issue(keyed.model_copy(update={"secret": "someone-else"}), "ana", now=NOW)
    with pytest.raises(TokenError, match="signature"):
        verify(keyed, foreign, now=NOW)


def test_expiry(keyed: Settings) -> None:
    token = issue(keyed, "ana", ttl_seconds=60, now=NOW)
    assert verify(keyed, token, now=NOW + 59) == "ana"
    with pytest.raises(TokenError, match="expired"):
        verify(keyed, token, now=NOW + 61)


def test_expiry_uses_the_clock_by_default(keyed: Settings) -> None:
    old = issue(keyed, "ana", ttl_seconds=10, now=NOW)
    with pytest.raises(TokenError, match="expired"):
        verify(keyed, old)


def test_default_ttl_comes_from_settings(keyed: Settings) -> None:
    short = keyed.model_copy(update={"token_ttl_seconds": 30})
    token = issue(short, "ana", now=NOW)
    assert payload_of(token)["exp"] == int(NOW) + 30
    with pytest.raises(TokenError, match="expired"):
        verify(short, token, now=NOW + 31)


def test_previous_secret_is_accepted_during_rotation(keyed: Settings) -> None:
    old = keyed.model_copy(update={"secret": "old-secret"})
    rotated = keyed.model_copy(update={"secret": "new-secret", "secret_previous": "old-secret"})
    after = keyed.model_copy(update={"secret": "new-secret", "secret_previous": None})
    token_old = issue(old, "ana", ttl_seconds=60, now=NOW)
    token_new = issue(rotated, "bob", ttl_seconds=60, now=NOW)

    assert verify(rotated, token_old, now=NOW) == "ana"
    assert verify(rotated, token_new, now=NOW) == "bob"
    assert token_new == signed("new-secret", token_new.split(".")[1]), "new tokens are signed with the new secret"
    with pytest.raises(TokenError):
        verify(after, token_old, now=NOW)
    assert verify(after, token_new, now=NOW) == "bob"
    stranger = issue(keyed.model_copy(update={"secret": "unrelated"}), "eve", now=NOW)
    with pytest.raises(TokenError):
        verify(rotated, stranger, now=NOW)


def test_rotation_does_not_extend_an_expired_token(keyed: Settings) -> None:
    token = issue(keyed.model_copy(update={"secret": "old-secret"}), "ana", ttl_seconds=5, now=NOW)
    rotated = keyed.model_copy(update={"secret": "new-secret", "secret_previous": "old-secret"})
    with pytest.raises(TokenError, match="expired"):
        verify(rotated, token, now=NOW + 6)


@pytest.mark.parametrize(
    "token",
    [
        "",
        "garbage",
        "mem1",
        "mem1.",
        "mem1.a",
        "mem1..",
        "mem1.a.b.c",
        "Bearer mem1.a.b",
        "mem2.e30.e30",
        "mem1.eyJzdWIiOiJhIn0",
        " mem1.a.b",
    ],
)
def test_malformed_tokens(keyed: Settings, token: str) -> None:
    with pytest.raises(TokenError):
        verify(keyed, token, now=NOW)


@pytest.mark.parametrize(
    "payload",
    [
        "!!!not-base64!!!",
        b64(b"not json at all"),
        b64(b"[1, 2, 3]"),
        b64(b'"just a string"'),
        b64(json.dumps({"sub": "ana"}).encode()),
        b64(json.dumps({"exp": NOW + 100}).encode()),
        b64(json.dumps({"sub": "ana", "exp": "tomorrow"}).encode()),
        b64(b"\xff\xfe\x00garbage"),
    ],
)
def test_correctly_signed_but_malformed_payloads(keyed: Settings, payload: str) -> None:
    """A payload that somehow got signed but is not the expected JSON is still a TokenError, never a crash."""
    with pytest.raises(TokenError):
        verify(keyed, signed("current-secret", payload), now=NOW)


def test_another_prefix_is_rejected_even_when_signed(keyed: Settings) -> None:
    good = issue(keyed, "ana", ttl_seconds=60, now=NOW)
    with pytest.raises(TokenError, match="malformed"):
        verify(keyed, "mem0." + good.split(".", 1)[1], now=NOW)
    with pytest.raises(TokenError, match="malformed"):
        verify(keyed, signed("current-secret", good.split(".")[1], prefix="mem0"), now=NOW)


def test_witness_links_and_user_tokens_never_pass_for_each_other(keyed: Settings) -> None:
    link = issue_witness(keyed, "grant-1", 60)
    user = issue(keyed, "grant-1", ttl_seconds=60)
    assert verify_witness(keyed, link) == "grant-1"
    assert verify(keyed, user) == "grant-1"
    with pytest.raises(TokenError):
        verify(keyed, link)
    with pytest.raises(TokenError):
        verify_witness(keyed, user)
    relabelled = "mem1." + link.split(".", 1)[1]  # same payload and signature, user prefix
    with pytest.raises(TokenError, match="signature"):
        verify(keyed, relabelled)


def test_non_ascii_signature_is_a_token_error(keyed: Settings) -> None:
    with pytest.raises(TokenError):
        verify(keyed, "mem1.eyJzdWIiOiJhIn0.\u00e9t\u00e9", now=NOW)


def test_development_secret_is_generated_once_and_private(settings: Settings, tmp_path: Path) -> None:
    dev = settings.model_copy(update={"secret": None, "home": tmp_path / "home"})
    first = secret_of(dev)
    assert len(first) >= 32
    assert secret_of(dev) == first
    mode = stat.S_IMODE((tmp_path / "home" / "secret").stat().st_mode)
    assert mode == 0o600
    token = issue(dev, "ana", ttl_seconds=60, now=NOW)
    assert verify(dev, token, now=NOW) == "ana"
    other_home = settings.model_copy(update={"secret": None, "home": tmp_path / "elsewhere"})
    with pytest.raises(TokenError):
        verify(other_home, token, now=NOW)
