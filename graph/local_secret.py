"""Secrets generated once per installation and kept in MEMORA_HOME with mode 0600 (the token secret, the retrieval
log's salt): created atomically, so two processes starting together agree on one value."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def read_or_create(path: Path) -> str:
    """The secret in `path`, written first (32 random bytes, URL-safe text) if the file does not exist yet."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(32))
        except FileExistsError:
            pass
    return path.read_text().strip()
