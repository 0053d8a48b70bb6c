"""A chapter draft's Markdown as safe HTML: the small subset a draft or an outline writes (`#` headings, `-`, `*`,
`+` and `1.` lists, `>` quotes, `---` rules, `**strong**`, `*emphasis*`, `` `code` ``, and `[E<n>]` citation
markers). Every piece of text is escaped; no HTML of the draft's ever reaches the page, and links are not made from
it (a model's text could point anywhere), except a citation marker the page itself lists, which becomes a link to
that entry's place on the page."""

from __future__ import annotations

import re
from collections.abc import Collection

from markupsafe import Markup, escape

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+(.*)$")
_NUMBER = re.compile(r"^\s{0,3}\d{1,9}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
_INLINE = re.compile(
    r"\\([\\`*_\[\]{}()#+\-.!>])"  # an escaped character, kept as itself
    r"|`([^`]+)`"
    r"|\*\*(?=\S)(.+?)(?<=\S)\*\*"
    r"|__(?=\S)(.+?)(?<=\S)__"
    r"|\*(?=\S)(.+?)(?<=\S)\*"
    r"|(?<![\w])_(?=\S)(.+?)(?<=\S)_(?![\w])"
    r"|\[(E\d+)\]"
)


def inline(text: str, citations: Collection[str] = ()) -> str:
    """One line's text as HTML: emphasis and code marked, everything else escaped."""
    out: list[str] = []
    at = 0
    for found in _INLINE.finditer(text):
        out.append(str(escape(text[at : found.start()])))
        literal, code, strong, strong2, em, em2, marker = found.groups()
        if literal is not None:
            out.append(str(escape(literal)))
        elif code is not None:
            out.append(f"<code>{escape(code)}</code>")
        elif strong is not None or strong2 is not None:
            out.append(f"<strong>{inline(strong or strong2 or '', citations)}</strong>")
        elif em is not None or em2 is not None:
            out.append(f"<em>{inline(em or em2 or '', citations)}</em>")
        elif marker in citations:
            out.append(f'<a href="#{escape(marker)}">[{escape(marker)}]</a>')
        else:
            out.append(str(escape(found.group(0))))
        at = found.end()
    out.append(str(escape(text[at:])))
    return "".join(out)


def render(text: str, heading_offset: int = 0, citations: Collection[str] = ()) -> Markup:
    """The Markdown `text` as HTML blocks; a heading of level n becomes `<h{n + heading_offset}>` (at most h6), so a
    draft's `#` sits under the page's own headings. Lines of a paragraph keep their breaks (an outline's lines are
    its events)."""
    blocks: list[str] = []
    para: list[str] = []
    quote: list[str] = []
    items: list[str] = []
    kind = ""

    def close_text() -> None:
        if para:
            blocks.append("<p>" + "<br>\n".join(para) + "</p>")
            para.clear()
        if quote:
            blocks.append("<blockquote><p>" + "<br>\n".join(quote) + "</p></blockquote>")
            quote.clear()

    def close_list() -> None:
        nonlocal kind
        if items:
            blocks.append(f"<{kind}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{kind}>")
            items.clear()
        kind = ""

    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            close_text()
            close_list()
            continue
        heading, bullet, number, quoted = (p.match(line) for p in (_HEADING, _BULLET, _NUMBER, _QUOTE))
        listed = bullet or number
        if heading:
            close_text()
            close_list()
            level = min(6, len(heading.group(1)) + heading_offset)
            blocks.append(f"<h{level}>{inline(heading.group(2), citations)}</h{level}>")
        elif _RULE.match(line):
            close_text()
            close_list()
            blocks.append("<hr>")
        elif listed:
            close_text()
            wanted = "ul" if bullet else "ol"
            if kind != wanted:
                close_list()
                kind = wanted
            items.append(inline(listed.group(1), citations))
        elif quoted:
            close_list()
            if para:
                close_text()
            quote.append(inline(quoted.group(1), citations))
        elif items and raw[:1] in (" ", "\t"):
            items[-1] += " " + inline(line.strip(), citations)
        else:
            close_list()
            if quote:
                close_text()
            para.append(inline(line.strip(), citations))
    close_text()
    close_list()
    return Markup("\n".join(blocks))
