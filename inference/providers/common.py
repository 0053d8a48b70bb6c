"""Naming and versioning local models: the version in `model_id` is a fingerprint of the files actually loaded, so
new weights under the same name become a new model version (new slug, new index) instead of mixing vectors."""

from __future__ import annotations

import hashlib
from pathlib import Path

GENERIC_DIRS = {"model", "models", "weights", "checkpoint", "snapshot", "files", "hf", "huggingface"}
HEAD_BYTES = 1 << 20


def local_dir(model: str) -> Path | None:
    """The directory a model name or path loads from: the path itself, or its Hugging Face cache snapshot."""
    path = Path(model).expanduser()
    if path.is_dir():
        return path.resolve()
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    for repo in (model, f"sentence-transformers/{model}") if "/" not in model else (model,):
        try:
            hit = try_to_load_from_cache(repo, "config.json")
        except Exception:  # noqa: BLE001 - an odd name is simply not cached
            continue
        if isinstance(hit, str):
            return Path(hit).parent
    return None


def display_name(model: str) -> str:
    """A hub name as given; a local path by its meaningful directory name (not `.../model` or a snapshot hash)."""
    path = Path(model).expanduser()
    if not path.is_dir():
        return model
    path = path.resolve()
    if path.parent.name == "snapshots" and path.parent.parent.name.startswith("models--"):
        return path.parent.parent.name.removeprefix("models--").replace("--", "/")
    if path.name.lower() in GENERIC_DIRS and path.parent.name:
        return path.parent.name
    return path.name


def fingerprint(directory: Path) -> str:
    """Hash of file names, sizes and the first MiB of each file: cheap, and changes with the weights."""
    digest = hashlib.sha256()
    for file in sorted(p for p in directory.rglob("*") if p.is_file()):
        rel = file.relative_to(directory).as_posix()
        if any(part.startswith(".") for part in file.relative_to(directory).parts) or rel.lower().endswith(".md"):
            continue
        digest.update(f"{rel}\0{file.stat().st_size}\0".encode())
        with file.open("rb") as fh:
            digest.update(fh.read(HEAD_BYTES))
    return digest.hexdigest()[:12]


def model_version(model: str, override: str | None) -> str | None:
    if override:
        return override
    directory = local_dir(model)
    return fingerprint(directory) if directory is not None else None
