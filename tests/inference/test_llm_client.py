"""The chat client every LLM-backed feature shares: it returns the model's text, and every way the endpoint can fail
is one LLMError with a reason that never carries the key or the prompt, so callers can fall back."""

from __future__ import annotations

import pytest

from graph.settings import Settings
from inference.providers.llm import ChatClient, ChatMessage, LLMError, chat_client
from tests.fake_llm import fake_llm


def test_the_client_sends_model_messages_and_key_and_returns_the_first_choice() -> None:
    with fake_llm(lambda messages: f"echo: {messages[-1]['content']}") as fake:
        client = ChatClient(fake.url, "tiny-chat", api_key="sk-test", timeout_seconds=5)
        answer = client.complete(
            [ChatMessage("system", "be brief"), ChatMessage("user", "Pep en Berlín, 2008")], max_tokens=50
        )
    assert answer == "echo: Pep en Berlín, 2008"
    sent = fake.requests[-1]
    assert sent["model"] == "tiny-chat" and sent["max_tokens"] == 50 and sent["temperature"] == 0.0
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert sent["authorization"] == "Bearer sk-test"
    assert client.name == "llm:tiny-chat"


@pytest.mark.parametrize("fault", ["status", "slow", "empty", "garbage"])
def test_every_failure_is_one_llm_error_without_secrets(fault: str) -> None:
    with fake_llm() as fake:
        if fault == "status":
            fake.status = 500
        elif fault == "slow":
            fake.delay_seconds = 1.5
        elif fault == "empty":
            fake.reply = lambda messages: "  "
        client = ChatClient(
            fake.url if fault != "garbage" else fake.url.replace("/v1", "/nowhere"),
            "m",
            api_key="sk-secret",
            timeout_seconds=0.5,
        )
        with pytest.raises(LLMError) as caught:
            client.complete([ChatMessage("user", "la receta secreta de la abuela")])
    reason = str(caught.value)
    assert "sk-secret" not in reason and "receta" not in reason and "127.0.0.1" not in reason
    assert {"status": "HTTP 500", "slow": "in time", "empty": "empty", "garbage": "HTTP 404"}[fault] in reason


def test_an_unreachable_endpoint_is_an_llm_error() -> None:
    client = ChatClient("http://127.0.0.1:9/v1", "m", timeout_seconds=0.5)
    with pytest.raises(LLMError, match="unreachable|in time"):
        client.complete([ChatMessage("user", "hola")])


def test_no_client_without_both_url_and_model() -> None:
    assert chat_client(Settings(llm_base_url=None, llm_model="m")) is None
    assert chat_client(Settings(llm_base_url="http://127.0.0.1:1/v1", llm_model=None)) is None
    client = chat_client(Settings(llm_base_url="http://127.0.0.1:1/v1/", llm_model="m", llm_timeout_seconds=2))
    assert client is not None and client.url == "http://127.0.0.1:1/v1/chat/completions"
