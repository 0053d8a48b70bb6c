"""Query understanding without a language model: dates, entities, filters, intent and layer for es/en/fr queries.

``from queries.search.understanding import understand, to_json, KnownEntity`` is the public face; the modules split the
work by concern: the date grammar lives in ``inference.dates`` (shared with ingest, which reads the times entries
tell): ``text`` (sanitising, folding, tokens), ``temporal`` (date expressions, with ``temporal_resolve``,
``temporal_words`` and ``calendar_math``); here, ``entities`` (entity and author matching),
``routing`` (language, emotion, intent, layer), ``cleaning`` (the text to embed), ``results`` (the result types,
``to_json``) and ``parse`` (``understand``).

Everything is relative to the explicit ``now``; nothing reads the clock. Matching runs on the folded text
(``graph.textnorm.fold``: lower-case, no accents), spans are mapped back to the original to quote it.

Rules (stable; docs/search.md, "Understanding a query", repeats them):

* Bare month/season/holiday/day ("en julio", "in summer", "en Navidad", "de julio a septiembre", "a finales de
  agosto"), with no year and no "last/this": recurring, any year's occurrence (``TemporalRange.recurrence``,
  ``by_year``); its start/end are the most recent occurrence that has started on or before ``now`` (the current
  one included). A year anywhere in the query anchors it to that year instead.
* "last"/"pasado"/"dernier" ("last July", "el verano pasado", "la Navidad pasada"): the most recent occurrence
  that ended strictly before ``now``; for months that is the latest such month before the current month.
* "this"/"este"/"cet" (season, month, holiday): the occurrence containing ``now``, else the one starting in
  ``now``'s year ("este invierno" in November is the coming winter).
* Seasons use fixed dates: spring 03-21..06-20, summer 06-21..09-22, autumn 09-23..12-20, winter
  12-21..03-20 of the next year; the southern hemisphere swaps them by six months. A season "of year Y" is the
  one that starts in Y (winter 2008 = 2008-12-21..2009-03-20).
* Holidays: single-day ones are that day (precision "day"); Christmas/Navidad/Noël is the window 12-24..12-26
  ("approx"); San Juan is 06-23..06-24 ("range"); Easter is Good Friday..Easter Monday ("approx") and Holy
  Week/Semana Santa Palm Sunday..Easter Monday ("range"). With a year they resolve in that year.
* "hace dos años"/"two years ago" is the calendar year now.year-2 (months: that calendar month; weeks: that
  Monday-Sunday week; days: that day). "a few"/"unos"/"quelques" N ago is approx from 7 N ago to 1 N ago;
  "recently"/"últimamente"/"récemment" is approx now-90..now. "last week" is the previous Monday-Sunday,
  "last weekend" the latest Saturday-Sunday ending before today.
* Two-digit years and decades pick the latest one not after ``now`` ("'08" -> 2008, "los 90" -> 1990s,
  "los 20" -> 2020s when now is 2026). "early/mid/late" (a principios/mediados/finales, début/milieu/fin)
  take the first, middle or last third (years by months Jan-Apr/May-Aug/Sep-Dec).
* Two dates joined by a connector ("del 2007 al 2009", "between July and August 2008") become one range; a
  year plus a year-less month/season/holiday elsewhere in the query combine ("en verano, el año pasado");
  any other set of dates becomes their covering range (its text joins separate pieces with " … ").
* Entities match name and aliases as whole words, accent/case-insensitively, longest first; several entities
  sharing the matched words are all returned with ambiguous=True. Typos: single tokens of >= 5 letters that are
  not words of the parser's word lists or plurals of the alias, rapidfuzz ratio >= 85. A capitalised exact entity
  name wins over a bare month/season/holiday word ("qué dijo Julio" is a person, "de julio a septiembre" a range).
* cleaned_text removes: dates, person mentions (kinship aliases included), author phrases ("solo lo que
  escribió Pep"), browse fillers ("muéstrame", "everything about") and recall openers ("¿te acuerdas de").
  Places and things stay (they are topical keywords), typo'd places/things are rewritten to the matched alias,
  tags stay as plain words without "#". Articles/prepositions left dangling before a removed span or at the
  end are dropped. If no content word is left, cleaned_text is the original text.
* language: counted distinctive function words; ties go to ``locale`` when given, else Spanish (the product's
  primary language). layer: "structured" when a date was found, else "keyword" (< 3 words), "dense"
  (> 10 words) or "balanced".
* Entities of a kind other than person/place go to ``things``. Only the first 2,000 characters are analysed.
"""

from .entities import EntityMatcher, matcher_for
from .parse import understand
from .results import EntityMatch, KnownEntity, TemporalRange, Understanding, to_json

__all__ = [
    "EntityMatch",
    "EntityMatcher",
    "KnownEntity",
    "TemporalRange",
    "Understanding",
    "matcher_for",
    "to_json",
    "understand",
]
