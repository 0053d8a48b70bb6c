"""One typed settings object, read once from `MEMORA_*` (and `NEO4J_*`) environment variables.

Each module of this package declares the fields of one layer, those the layer reads (the lowest layer, when several
read a field: tests/house/test_settings_layers.py), so a layer's configuration is read in one place; `Settings`
composes them into one flat object, so `settings.field` reads the same everywhere and one environment is parsed once.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel
from pydantic_settings import BaseSettings, SettingsConfigDict

from graph.settings.api import ApiSettings
from graph.settings.auth import AuthSettings
from graph.settings.inference import InferenceSettings
from graph.settings.ingest import IngestSettings
from graph.settings.search import SearchSettings
from graph.settings.store import StoreSettings

REPO_ROOT = Path(__file__).resolve().parents[2]

# Each group of fields, bottom up, and the layer that reads them.
LAYERS: dict[type[BaseModel], str] = {
    StoreSettings: "graph",
    InferenceSettings: "inference",
    IngestSettings: "ingest",
    SearchSettings: "queries",
    AuthSettings: "api",
    ApiSettings: "api",
}


# The groups are plain models: the environment is read once, here, with one prefix and their aliases.
class Settings(
    ApiSettings, AuthSettings, SearchSettings, IngestSettings, InferenceSettings, StoreSettings, BaseSettings
):
    model_config = SettingsConfigDict(env_prefix="MEMORA_", extra="ignore")


def declared_by(name: str) -> type[BaseModel]:
    """The group that declares a field of `Settings`."""
    return next(group for group in LAYERS if name in group.model_fields)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
