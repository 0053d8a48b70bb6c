"""A chapter as a Markdown file to keep (the chapters page's download): the draft, or the context as the page shows
it, then the cited entries in full as the context carries them, each under its `[E<n>]` marker. Built from what the
page's actions returned for the viewer, nothing more."""

from __future__ import annotations

from collections.abc import Callable

from api.models.summaries import ChapterContextOut, DraftOut


def chapter_markdown(
    t: Callable[[str], str],
    theme: str,
    context: ChapterContextOut | None,
    draft: DraftOut | None,
    authors: dict[str, str | None],
) -> str:
    """The file's text; `context` is None when the theme found nothing; `authors` maps an entry id to the author
    shown ("" for a witness with no name)."""
    title = f"# {' '.join(theme.split())}"
    if context is None:
        return f"{title}\n\n{t('nothing_matched').format(theme=theme.strip())}\n"
    if draft is not None:
        text = draft.text.strip()
        lines = [text] if text.startswith("#") else [title, "", text]
    else:
        lines = [title, "", context.project.summary.strip()]
        for period in context.periods:
            lines += ["", f"## {period.name} ({period.start or '?'} – {period.end or '?'})", ""]
            if period.events:
                lines += [f"- {e.text}" + (f" [{e.citation}]" if e.citation else "") for e in period.events]
            else:
                lines.append(period.summary.strip())
    if context.entries:
        lines += ["", f"## {t('cited')}"]
        for e in context.entries:
            who = authors.get(e.entry_id)
            by = "" if who is None else f" · {who or t('home_a_witness')}"
            lines += ["", f"### [{e.citation}] {e.occurred_on or ''}{by}".rstrip(), "", e.text.strip()]
    return "\n".join(lines).strip() + "\n"
