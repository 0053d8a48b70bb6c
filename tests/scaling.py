"""What the scaling tests share: the environment that points `memora serve` at an existing Neo4j (NEO4J_URI, so it
manages no server of its own), and a TCP relay that stands in front of Neo4j's Bolt port and can be cut."""

from __future__ import annotations

import contextlib
import re
import socket
import threading
from types import TracebackType
from urllib.parse import urlsplit

from graph.db import credentials
from graph.settings import Settings


def bolt_address(settings: Settings) -> tuple[str, int]:
    """Host and port of the Neo4j the tests use (the managed one or NEO4J_URI's)."""
    parts = urlsplit(settings.bolt_uri)
    return parts.hostname or "127.0.0.1", parts.port or 7687


def external_env(settings: Settings, uri: str) -> dict[str, str]:
    """`memora serve` against `uri` with this graph's credentials; its own workers off except the embedding one, and
    no sampled search log (each process stays light on a 2-core machine)."""
    user, password = credentials(settings)
    return {
        "NEO4J_URI": uri,
        "NEO4J_USER": user,
        "NEO4J_PASSWORD": password,
        "MEMORA_NEO4J_DATABASE": settings.neo4j_database,
        "MEMORA_ENTITY_VECTORS_SECONDS": "0",
        "MEMORA_SUMMARY_WORKER": "false",
        "MEMORA_SEARCH_LOG_SAMPLE": "0",
    }


# Bolt messages as a driver writes them (PackStream): HELLO's routing context, which only a routing driver sends; the
# ROUTE request for a routing table; a BEGIN, and the `mode: "r"` of a read transaction's BEGIN; a BEGIN that carries
# bookmarks (the causal chain to earlier transactions).
HELLO_ROUTING = rb"\x87routing\xa1\x87address"
ROUTE = rb"\xb3\x66\xa1\x87address"
BEGIN = rb"\xb1\x11[\xa0-\xaf]"
READ_MODE = rb"\x84mode\x81r"
BOOKMARKS = rb"\x89bookmarks[\x91-\x9f]"


class TcpRelay:
    """Forwards every connection made to its own loopback port to `target`, keeping what each client sent (the Bolt
    messages a driver wrote, to look into); `cut()` stops listening and closes every connection it carries."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._open: list[socket.socket] = []
        self._sent: list[bytearray] = []
        self._lock = threading.Lock()
        self._cut = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._cut:
                    client.close()
                    upstream.close()
                    return
                self.connections += 1
                self._open += [client, upstream]
                self._sent.append(sent := bytearray())
            threading.Thread(target=self._pump, args=(client, upstream, sent), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, None), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, keep: bytearray | None) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                if keep is not None:
                    with self._lock:
                        keep += data
                dst.sendall(data)
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def count(self, pattern: bytes) -> int:
        """How often clients sent `pattern` (a bytes regular expression), over all connections so far."""
        with self._lock:
            return sum(len(re.findall(pattern, bytes(sent))) for sent in self._sent)

    def drop(self) -> None:
        """Close every connection it carries (as a restarting server or a load balancer would) and keep listening."""
        with self._lock:
            live, self._open = self._open, []
        for s in live:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            live, self._open = self._open, []
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (close alone does not)
        self._listener.close()
        for s in live:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def __enter__(self) -> TcpRelay:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.cut()
