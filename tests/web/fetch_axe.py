"""Fetch axe-core (the accessibility rules the browser tests run in each page) from the npm registry at install
time, check it against the integrity hash npm publishes for that version, and keep only `axe.min.js`.

    python -m tests.web.fetch_axe DEST        (what `make test` runs; DEST: .venv/axe/axe.min.js)
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.10.3"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="


def fetch(dest: Path) -> None:
    with urllib.request.urlopen(TARBALL, timeout=120) as answer:
        data = answer.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != INTEGRITY:
        raise SystemExit(f"axe-core {VERSION}: the tarball does not match npm's integrity hash")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile("package/axe.min.js")
        if member is None:
            raise SystemExit("axe-core tarball without package/axe.min.js")
        script = member.read()
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(script)


if __name__ == "__main__":
    fetch(Path(sys.argv[1]))
