"""Pictures as SVG text, drawn in pure Python: an entity's entries per year or month (the API's `timeline.svg`, the
web's entity page) and who appears with it (the entity page). No plotting library is needed, so the pictures are
there wherever the service runs.

A picture depends only on the numbers and words it is given (visible counts, the page's language), so it changes
exactly when the viewer's numbers do, and the same numbers always give the same bytes. Every text is escaped; each
picture carries a `<title>` and a `<desc>` with its numbers, its text alternative."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

SVG = "image/svg+xml"
"""The media type of a picture served on its own."""
XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
INK, MUTED, LINE, BAR, PAPER = "#1d1d1f", "#4a4a52", "#d9d6cf", "#0b5cad", "#fdfcf9"
MOST_COMPANIONS = 8
NAME_CHARS = 22


def _x(text: object) -> str:
    """Text or an attribute value, escaped for XML (quotes too)."""
    return escape(str(text), quote=True)


@dataclass(frozen=True)
class ChartWords:
    """The words of a timeline picture; `title` names the entity as `{name}`, `one`/`many` count as `{n}`."""

    title: str = "{name}: entries per {resolution}"
    one: str = "{n} entry"
    many: str = "{n} entries"
    empty: str = "no dated entries"

    def count(self, n: int) -> str:
        return (self.one if n == 1 else self.many).format(n=n)


@dataclass(frozen=True)
class Companion:
    """One who appears with the entity: in how many visible entries together, and the page it links to."""

    name: str
    together: int
    href: str | None = None


@dataclass(frozen=True)
class CompanionWords:
    """The words of the companions picture; `together` counts as `{n}`, `title` names the entity as `{name}`."""

    title: str = "Who appears with {name}"
    together_one: str = "together in {n} entry"
    together_many: str = "together in {n} entries"

    def together(self, n: int) -> str:
        return (self.together_one if n == 1 else self.together_many).format(n=n)


def series(rows: list[dict[str, Any]], resolution: str) -> tuple[list[str], list[int]]:
    """Every year or month from the first to the last row, empty ones at 0, so a gap shows as a gap."""
    if not rows:
        return [], []
    counts = {str(r["year"] if resolution == "year" else r["month"]): int(r["entries"]) for r in rows}
    if resolution == "year":
        labels = [str(y) for y in range(int(rows[0]["year"]), int(rows[-1]["year"]) + 1)]
    else:
        (y0, m0), (y1, m1) = (map(int, str(rows[i]["month"]).split("-")) for i in (0, -1))
        labels = [f"{i // 12:04d}-{i % 12 + 1:02d}" for i in range(y0 * 12 + m0 - 1, y1 * 12 + m1)]
    return labels, [counts.get(label, 0) for label in labels]


def _svg(ident: str, width: int, height: int, role: str, body: list[str], title: str, desc: str) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="picture" id="{_x(ident)}" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="{role}" aria-labelledby="{_x(ident)}-title {_x(ident)}-desc" '
        f'font-family="{_x(FONT)}" font-size="12" fill="{INK}">'
    )
    alt = f'<title id="{_x(ident)}-title">{_x(title)}</title><desc id="{_x(ident)}-desc">{_x(desc)}</desc>'
    return "".join([head, alt, *body, "</svg>"])


def timeline_svg(
    name: str,
    rows: list[dict[str, Any]],
    resolution: str = "year",
    words: ChartWords | None = None,
    ident: str = "timeline",
) -> str:
    """Bars of visible entries per year or month (`rows` as the entity timeline gives them), as an `<svg>` element
    to put in a page; `timeline_document` for a file of its own."""
    w = words or ChartWords()
    title = w.title.format(name=name, resolution=resolution)
    labels, counts = series(rows, resolution)
    slot = 40.0 if resolution == "year" else 12.0
    left, right, top, bottom = 34, 12, 34, 26
    plot_w = int(min(1100.0, max(420.0, slot * len(labels), 7.5 * len(title))))
    plot_h = 150
    width, height = left + plot_w + right, top + plot_h + bottom
    body = [f'<text x="{left}" y="18" font-size="14" font-weight="600">{_x(title)}</text>']
    if not labels:
        body.append(
            f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h / 2:.1f}" text-anchor="middle" '
            f'fill="{MUTED}">{_x(w.empty)}</text>'
        )
        return _svg(ident, width, height, "img", body, title, w.empty)
    peak = max(counts) or 1
    step_w = plot_w / len(labels)
    base = top + plot_h
    body.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="{MUTED}"/>')
    for value, y in ((peak, top), (0, base)):
        body.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end" fill="{MUTED}">{value}</text>')
    body.append(f'<line x1="{left}" y1="{top}" x2="{left + plot_w}" y2="{top}" stroke="{LINE}"/>')
    every = max(1, math.ceil(len(labels) / max(1, plot_w // 56)))
    for i, (label, n) in enumerate(zip(labels, counts, strict=True)):
        x = left + i * step_w
        if n:
            h = plot_h * n / peak
            body.append(
                f'<rect class="picture-bar" x="{x + step_w * 0.1:.1f}" y="{base - h:.1f}" width="{step_w * 0.8:.1f}" '
                f'height="{h:.1f}" fill="{BAR}"><title>{_x(label)}: {_x(w.count(n))}</title></rect>'
            )
            if step_w >= 18:
                body.append(f'<text x="{x + step_w / 2:.1f}" y="{base - h - 4:.1f}" text-anchor="middle">{n}</text>')
        if i % every == 0:
            body.append(
                f'<text x="{x + step_w / 2:.1f}" y="{base + 16}" text-anchor="middle" fill="{MUTED}" '
                f'font-size="11">{_x(label)}</text>'
            )
    desc = "; ".join(f"{label}: {w.count(n)}" for label, n in zip(labels, counts, strict=True))
    return _svg(ident, width, height, "img", body, title, desc)


def timeline_document(name: str, rows: list[dict[str, Any]], resolution: str, words: ChartWords | None = None) -> bytes:
    """`timeline_svg` as an SVG file (`image/svg+xml`), in UTF-8."""
    return (XML_DECLARATION + timeline_svg(name, rows, resolution, words) + "\n").encode()


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def companions_svg(
    name: str, companions: list[Companion], words: CompanionWords | None = None, ident: str = "companions-picture"
) -> str:
    """The entity in the middle and its first `MOST_COMPANIONS` companions around it, each line as thick as the
    entries they share; each name a link to its page when it has one. The caller gives companions best first."""
    w = words or CompanionWords()
    shown = companions[:MOST_COMPANIONS]
    title = w.title.format(name=name)
    width, height, cx, cy, rx, ry = 600, 330, 300, 165, 150, 112
    peak = max((c.together for c in shown), default=1) or 1
    lines, nodes = [], []
    for i, c in enumerate(shown):
        angle = -math.pi / 2 + 2 * math.pi * i / len(shown)
        x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
        thick = 1 + 7 * c.together / peak
        lines.append(
            f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="{BAR}" stroke-opacity="0.55" '
            f'stroke-width="{thick:.1f}" stroke-linecap="round"/>'
        )
        cos = math.cos(angle)
        anchor = "start" if cos > 0.3 else ("end" if cos < -0.3 else "middle")
        tx = x + (9 if anchor == "start" else -9 if anchor == "end" else 0)
        ty = y + (4 if anchor != "middle" else (-10 if y < cy else 20))
        label = (
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{BAR}"/>'
            f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}">{_x(_short(c.name))} '
            f'<tspan fill="{MUTED}">({c.together})</tspan></text>'
        )
        tip = f"<title>{_x(c.name)}: {_x(w.together(c.together))}</title>"
        if c.href:
            nodes.append(f'<a class="picture-link" href="{_x(c.href)}">{tip}{label}</a>')
        else:
            nodes.append(f"<g>{tip}{label}</g>")
    centre = _short(name)
    half = 10 + 4.6 * len(centre)
    middle = (
        f'<rect x="{cx - half:.1f}" y="{cy - 13}" width="{2 * half:.1f}" height="26" rx="13" fill="{PAPER}" '
        f'stroke="{INK}"/><text x="{cx}" y="{cy + 5}" text-anchor="middle" font-size="14" '
        f'font-weight="600">{_x(centre)}</text>'
    )
    desc = "; ".join(f"{c.name}: {w.together(c.together)}" for c in shown)
    return _svg(ident, width, height, "group", [*lines, *nodes, middle], title, desc)
