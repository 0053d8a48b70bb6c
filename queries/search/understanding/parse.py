"""`understand()`: one pass over a query, from the raw text to an `Understanding` (the rules are in the package
docstring). Each concern lives in its own module; this one only orders them and assembles the result."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date

from inference.dates.temporal import DateCandidate, DateContext, find_dates, locale_month_first
from inference.dates.temporal_resolve import resolve_dates
from inference.dates.text import QueryText, Token, fold_with_map, sanitise, tokenize

from .cleaning import browse_spans, cleaned_text, filler_span
from .entities import EntityMatcher, add_unique, author_span, entity_mentions, matcher_for
from .results import EntityMatch, KnownEntity, Understanding
from .routing import choose_layer, guess_emotion, guess_intent, guess_language

_TAG = re.compile(r"#(\w[\w-]*)")


def understand(
    text: str,
    entities: Sequence[KnownEntity] | EntityMatcher,
    now: date,
    locale: str | None = None,
    hemisphere: str | Callable[[], str] = "north",
) -> Understanding:
    """Parse a search query into filters (dates, entities, tags, author) and what is left to embed. `hemisphere`
    (what a season means) may be a callable, called only when the query names a season."""
    raw = text if isinstance(text, str) else str(text)
    orig = sanitise(raw)
    folded, index = fold_with_map(orig)
    tx = QueryText(orig, folded, index)
    toks = tokenize(folded)
    ctx = DateContext(now, hemisphere, locale_month_first(locale))

    tags: list[str] = []
    tag_spans: list[tuple[int, int]] = []
    for m in _TAG.finditer(folded):
        if m.group(1) not in tags:
            tags.append(m.group(1))
        tag_spans.append((m.start(), m.end()))

    temporal = find_dates(folded, ctx, tag_spans)
    mentions, temporal = entity_mentions(toks, tx, matcher_for(entities), tag_spans, temporal)
    temporal, trange = resolve_dates(temporal, tx)

    removals: list[tuple[int, int]] = [(c.start, c.end) for c in temporal]
    replace: dict[int, str] = {k: "" for k, tok in enumerate(toks) if any(tok.start == a for a, _ in tag_spans)}
    buckets: dict[str, list[EntityMatch]] = {"person": [], "place": [], "thing": []}
    author: EntityMatch | None = None
    entity_tokens: set[int] = set()
    for hit, (s, e), tok_range in mentions:
        entity_tokens.update(tok_range)
        ambiguous = len(hit.entities) > 1
        matches = [EntityMatch(x.id, x.name, x.kind, tx.slice(s, e), ambiguous) for x in hit.entities]
        only_persons = all(x.kind == "person" for x in hit.entities)
        if only_persons and author is None:
            span = author_span(folded, s, e)
            if span:
                author = matches[0]
                removals.append(span)
                continue
        if only_persons:
            removals.append((s, e))
        elif not hit.exact:
            replace[tok_range[0]] = hit.display
        for em in matches:
            add_unique(buckets.get(em.kind, buckets["thing"]), em)

    browse = browse_spans(folded)
    removals.extend(browse)
    filler = filler_span(folded)
    if filler:
        removals.append(filler)

    removed = [any(tok.start < b and tok.end > a for a, b in removals) for tok in toks]
    removed_idx = {k for k, flag in enumerate(removed) if flag}
    language = guess_language(toks, entity_tokens, orig, locale)
    emotion = guess_emotion(toks, entity_tokens | {k for k, tok in enumerate(toks) if _in_any(tok, temporal)})
    intent = guess_intent(folded, toks, tx, language, bool(browse), entity_tokens | removed_idx)

    cleaned = cleaned_text(tx, toks, removed, replace)
    layer = choose_layer(trange is not None, sum(tok.word for tok in toks))
    return Understanding(
        text=raw,
        cleaned_text=cleaned,
        temporal=trange,
        persons=buckets["person"],
        places=buckets["place"],
        things=buckets["thing"],
        tags=tags,
        author=author,
        emotion=emotion,
        intent=intent,
        language=language,
        layer=layer,
    )


def _in_any(t: Token, cands: list[DateCandidate]) -> bool:
    return any(t.start < c.end and t.end > c.start for c in cands)
