"""The settings are declared by layer: each module of graph/settings/ declares the fields of one layer, and a field
sits in the group of the lowest layer that reads it (as `settings.x` or `get_settings().x`). It fails here when a
group declares a field its layer does not read (an api-only limit put among the store's settings), when a layer below
the group's reads it (a setting of graph/ declared among the api's), and when the composed `Settings` stops reading a
group's fields from the environment."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from pydantic_settings import BaseSettings

from graph.settings import LAYERS, Settings, declared_by
from graph.settings.api import ApiSettings
from graph.settings.auth import AuthSettings
from graph.settings.inference import InferenceSettings
from graph.settings.ingest import IngestSettings
from graph.settings.search import SearchSettings
from graph.settings.store import StoreSettings

REPO = Path(__file__).resolve().parents[2]
# Each layer and the layers below it (tests/house/test_layers.py).
BELOW = {
    "graph": set(),
    "inference": {"graph"},
    "ingest": {"inference", "graph"},
    "queries": {"inference", "graph"},
    "api": {"queries", "ingest", "inference", "graph"},
}
SOURCES = {
    path.relative_to(REPO).as_posix(): path.read_text(encoding="utf-8")
    for layer in BELOW
    for path in (REPO / layer).rglob("*.py")
}
READERS = {path: text for path, text in SOURCES.items() if not path.startswith("graph/settings/")}
READERS.pop("api/settings_doc.py")  # names every field to document it


def layers_reading(name: str) -> set[str]:
    """The layers whose modules read a field, directly or through a property of its group (`bolt_uri` reads
    `neo4j_uri`)."""
    group = declared_by(name)
    through = [
        prop
        for prop, value in vars(group).items()
        if isinstance(value, property) and value.fget and f"self.{name}" in inspect.getsource(value.fget)
    ]
    reads = re.compile(rf"settings(?:\(\))?\.(?:{'|'.join([name, *through])})\b")
    return {path.split("/")[0] for path, text in READERS.items() if reads.search(text)}


def test_settings_is_its_groups_and_each_field_is_declared_once() -> None:
    assert set(Settings.__bases__) == set(LAYERS) | {BaseSettings}
    declared = [name for group in LAYERS for name in group.model_fields]
    assert sorted(declared) == sorted(Settings.model_fields)


def test_a_setting_is_declared_by_the_lowest_layer_that_reads_it() -> None:
    misplaced = {}
    for name in Settings.model_fields:
        group = declared_by(name)
        layer, read_by = LAYERS[group], layers_reading(name)
        if layer not in read_by or read_by & BELOW[layer]:
            misplaced[name] = f"in {group.__module__} ({layer}), read by {sorted(read_by) or 'nothing'}"
    assert misplaced == {}, "move each to the group of the lowest layer that reads it"


@pytest.mark.parametrize(
    ("group", "variable", "value", "name"),
    [
        (StoreSettings, "NEO4J_USER", "someone", "neo4j_user"),
        (InferenceSettings, "MEMORA_EMBEDDER_MODEL", "another-model", "embedder_model"),
        (IngestSettings, "MEMORA_RECOGNITION_DEFAULT_LANGUAGE", "fr", "recognition_default_language"),
        (SearchSettings, "MEMORA_RRF_K", "7", "rrf_k"),
        (AuthSettings, "MEMORA_RATE_WRITE_BURST", "3", "rate_write_burst"),
        (ApiSettings, "MEMORA_API_PORT", "9999", "api_port"),
    ],
)
def test_every_group_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, group: type, variable: str, value: str, name: str
) -> None:
    assert declared_by(name) is group
    monkeypatch.setenv(variable, value)
    assert str(getattr(Settings(), name)) == value


def test_an_invalid_value_is_refused_with_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORA_MMR_LAMBDA", "1.5")
    with pytest.raises(ValidationError, match="mmr_lambda"):
        Settings()
