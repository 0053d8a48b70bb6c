"""Secrets generated once per installation and kept in MEMORA_HOME with mode 0600 (the token secret, the retrieval
log's salt): created atomically, so two processes starting together agree on one value."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def read_or_create(path: Path) -> str:
    """The secret in `path`, written first (32 random bytes, URL-safe text) if the file does not exist yet. The file
    appears whole or not at all (written aside, then linked into place), so a process starting at the same moment
    never reads it empty."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(32))
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(aside, path)  # atomic, and never replaces a secret another process put there first
        finally:
            aside.unlink(missing_ok=True)
    secret = path.read_text().strip()
    if not secret:
        raise RuntimeError(f"{path} is empty: delete it to have a new secret generated")
    return secret
