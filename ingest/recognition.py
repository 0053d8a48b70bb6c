"""Names spaCy finds in an entry that are not known entities: the entry's candidates, kept on the entry itself.

Each entry's language is detected (ingest/language.py) and its text goes through that language's pipeline
(ingest/spacy_pipelines.py), a batch at a time with `nlp.pipe`. A name is dropped when the entry already links it:
when one of the project's declared names or aliases the entry may be linked through (its gazetteer, the same
`ProjectLexicon` the alias matcher uses) occurs inside it, or when the entry lists it. What is left is stored on the
entry as parallel lists (`spotted_kinds`, `spotted_names`, `spotted_keys` folded, `spotted_counts`), written in the
same transaction as the entry and deleted with it, so candidates are counted over the entries a viewer may see,
inside the query (graph/candidates.py), and never outlive or outreach their entry. Candidates link nothing: search
and entity analytics are unchanged until a writer confirms one (it then becomes a declared entity).

The pipelines find capitalised words; most capitalised words in diaries and chats are not names. A name is not
proposed when it is only words that are never names (ingest/not_names.py: function words, greetings and laughter,
weekdays, months, numbers, nationalities, school subjects), when it lies inside a feast ("Christmas Eve", "Todos los
Santos"), when it is written in capitals ("OMG", "NBA") or with digits ("A380"), when it starts with a lone letter
("U-Bahn"), when it is one word the entry also writes in lower case ("Yoga ... yoga"), or, in English, one common
word ("Economy"); such words are also trimmed off the edges of a longer name ("Haha Kate", "Sir Terry Pratchett"),
and so is a word that is only capitalised because it starts the sentence. A person is the kind a capitalised name
gets when nothing says otherwise, so other evidence wins: a well-known place ("Miami", "Turks and Caicos"), a place
word at its head or tail ("Zion National Park", "playa de Bolonia") or a place preposition before it make it a
place; a brand, an event word at its tail ("Australian Open"), common words only ("Death Star"), quotation marks
around it alone or "by" after it (a title), an article ("el Athletic", "the Golden Globes") or a possessive ("su
Clio") before it make it a thing. A name that is a place or a thing anywhere in the entry is so throughout, except
that an article or a possessive alone yields to the same name used as a person.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from graph.lexicon import ProjectLexicon
from graph.settings import get_settings
from graph.textnorm import fold
from ingest import not_names as nn
from ingest.language import detect_language
from ingest.spacy_pipelines import (
    ARTICLES,
    KINSHIP,
    PLACE_OF,
    PLACE_PREPOSITIONS,
    STREET,
    motion,
    pipeline,
    starts_sentence,
)

log = logging.getLogger(__name__)

KIND_OF_LABEL = {
    "PER": "person",
    "PERSON": "person",
    "LOC": "place",
    "GPE": "place",
    "FAC": "place",
    "ORG": "thing",
    "PRODUCT": "thing",
    "WORK_OF_ART": "thing",
}
_LOCKS: dict[str, threading.Lock] = {}
MAX_PER_ENTRY = 50
MAX_NAME = 80
_POSSESSIVES = frozenset(
    "my your his her our their mi mis tu tus su sus nuestro nuestra nuestros nuestras mon ma mes ton ta tes son sa "
    "ses notre votre leur".split()
)
_ARTICLES = {lang: frozenset(ARTICLES[lang].split()) | {"al", "del", "au", "aux", "du", "des"} for lang in ARTICLES}
_LEADING = {
    lang: frozenset(fold(w) for w in (KINSHIP[lang] + " " + PLACE_PREPOSITIONS[lang]).split())
    | _POSSESSIVES
    | _ARTICLES[lang]
    | nn.HONORIFICS
    for lang in KINSHIP
}
_KIN = frozenset(fold(w) for lang in KINSHIP for w in KINSHIP[lang].split()) | {
    "madre",
    "padre",
    "mother",
    "father",
    "mere",
    "pere",
}
_PLACE_NOUNS = frozenset(fold(w) for lang in PLACE_OF for w in (PLACE_OF[lang][0] + " " + STREET[lang]).split())
_NEVER_ALONE = (
    nn.INTERJECTIONS | nn.WEEKDAYS_MONTHS | nn.GOD | nn.DEMONYMS | nn.SUBJECTS | nn.HONORIFICS | _KIN
)  # with the stop words: a name made only of these is none
_STREET_SUFFIXES = ("strasse", "straße", "platz")
_QUOTE_PAIRS = {"«": "»", "“": "”", '"': '"'}
_FOREIGN_ARTICLES = frozenset("La Las Los El Le Les".split())  # capitalised inside a sentence: part of a place's name
_WEAK_THING = "thing?"
_PLACE_WORDS = frozenset("near around across through throughout outside towards toward vers".split())
_PLACE_PAIRS = frozenset(
    tuple(pair.split())
    for pair in ("cerca de", "lejos de", "lado de", "alrededor de", "afueras de", "pres de", "loin de", "autour de")
)


@dataclass(frozen=True)
class Spotted:
    kind: str
    name: str
    count: int


@dataclass(frozen=True)
class Recognition:
    language: str | None
    spotted: list[Spotted]

    def props(self) -> dict[str, Any]:
        """The entry properties that carry it."""
        return {
            "language": self.language,
            "spotted_kinds": [s.kind for s in self.spotted],
            "spotted_keys": [fold(s.name) for s in self.spotted],
            "spotted_names": [s.name for s in self.spotted],
            "spotted_counts": [s.count for s in self.spotted],
        }


def recognize(items: list[tuple[str, ProjectLexicon, list[str]]]) -> list[Recognition]:
    """For each (text, lexicon the entry is linked through, names it lists): its language and the names found in it
    that it does not already link. Texts of one language go through `nlp.pipe` together. Recognition turned off
    (MEMORA_RECOGNITION=false) finds nothing; a pipeline that fails finds nothing for its batch (logged), never
    failing the write."""
    settings = get_settings()
    default = settings.recognition_default_language
    langs = [detect_language(text, default) or default for text, _, _ in items]
    if not settings.recognition:
        return [Recognition(lang, []) for lang in langs]
    found: list[list[Spotted]] = [[] for _ in items]
    known: dict[int, set[str]] = {}
    for _, lexicon, _ in items:
        if id(lexicon) not in known:
            known[id(lexicon)] = {key for _, key in lexicon.by_key}
    for lang in dict.fromkeys(langs):
        idx = [i for i, lg in enumerate(langs) if lg == lang]
        try:
            nlp, _ = pipeline(lang)
            stops = getattr(nlp, "memora_stop_words", None)
            if stops is None:  # kept with the pipeline they serve, loaded once as it is
                stops = nlp.memora_stop_words = (nn.stop_words(lang), nn.stop_words())
            with _LOCKS.setdefault(lang, threading.Lock()):  # a pipeline is not promised to be thread-safe
                docs = list(nlp.pipe([items[i][0] for i in idx], batch_size=64))
            for i, doc in zip(idx, docs, strict=True):
                found[i] = _names(_Entry(doc, lang, *stops), items[i][1], known[id(items[i][1])], items[i][2])
        except Exception as exc:  # noqa: BLE001 - recognition is an extra; a failure must never lose the write
            log.warning("name recognition failed for %d %s entries: %s", len(idx), lang, str(exc)[:200])
    return [Recognition(lang, spotted) for lang, spotted in zip(langs, found, strict=True)]


def _names(entry: _Entry, lexicon: ProjectLexicon, known: set[str], listed: list[str]) -> list[Spotted]:
    doc = entry.doc
    listed_keys = {fold(n) for n in listed}
    kinds: dict[str, Counter[str]] = {}
    shown: dict[str, str] = {}
    claimed: set[int] = set()
    spans: list[tuple[int, int, str]] = []
    for ent in doc.ents:
        kind = KIND_OF_LABEL.get(ent.label_)
        if kind is None:
            continue
        claimed.update(range(ent.start, ent.end))
        span = entry.candidate(ent.start, ent.end, kind)
        if span is not None:
            spans.append(span)
    for start, end in entry.places:  # well-known places the pipeline left out (a sentence's first word, say)
        if not claimed.intersection(range(start, end)) and entry.place_stands(start, end):
            spans.append((start, end, "place"))
    for start, end, kind in spans:
        name = doc[start:end].text.strip(" \t\n.,;:!?¡¿\"'«»()")
        key = fold(name)
        if len(name) < 2 or len(name) > MAX_NAME or not name[:1].isalpha():
            continue
        if key in listed_keys or key in known or (kind == "person" and lexicon.find_in(name)):
            continue  # the entry links it already (the gazetteer wins over the pipeline: "Pep Puig" when Pep is known)
        kinds.setdefault(key, Counter())[kind] += 1
        shown.setdefault(key, name)
    spotted = [Spotted(_kind(votes), shown[key], sum(votes.values())) for key, votes in kinds.items()]
    return sorted(spotted, key=lambda s: (-s.count, fold(s.name)))[:MAX_PER_ENTRY]


def _kind(votes: Counter[str]) -> str:
    """One kind per name in an entry: a person is only the default, so a place or a thing anywhere wins; an article
    or a possessive alone ("the Djokovic final", "su Clio") loses to the name used as a person elsewhere."""
    for kind in ("place", "thing", "person", _WEAK_THING):
        if votes[kind]:
            return "thing" if kind == _WEAK_THING else kind
    return "person"


class _Entry:
    """One entry's tokens, with what the name rules ask of them computed once."""

    def __init__(self, doc: Any, lang: str, stop: frozenset[str], any_stop: frozenset[str]) -> None:
        self.doc, self.lang = doc, lang
        self.keys = [fold(t.text) for t in doc]
        self.texts = [t.text for t in doc]
        self.lower = {k for text, k in zip(self.texts, self.keys, strict=True) if text.islower()}
        self._starts: dict[int, bool] = {}
        self._pieces: list[str] = []
        self._owner: list[int] = []
        for i, text in enumerate(self.texts):
            if text.strip():
                for piece in nn.tokens(text):
                    self._pieces.append(piece)
                    self._owner.append(i)
        self.stop, self.any_stop = stop, any_stop
        self.leading = _LEADING.get(lang, frozenset(_POSSESSIVES))
        self.articles = _ARTICLES.get(lang, frozenset())
        self.holiday = self._covered(nn.HOLIDAYS, capitalised=False)
        self.places = self._spans(nn.KNOWN_PLACES, capitalised=True)
        self.in_place = {i: (s, e) for s, e in self.places for i in range(s, e)}
        self.quoted = self._quoted()

    def candidate(self, start: int, end: int, kind: str) -> tuple[int, int, str] | None:
        """The name a pipeline's entity holds once trimmed, with its kind; None when it is none."""
        doc, keys = self.doc, self.keys
        start, end = self._compound(start, end)
        if self._in_quotes(start, end):  # a title ("“Water Lilies”", "«Hator hator»"): capitalised as one
            while start < end and (keys[start] in self.articles or doc[start].is_punct):
                start += 1
            return (start, end, "thing") if start < end and not self._never_a_name(start, end) else None
        after_place_word = (
            end - start > 1 and doc[start].text in _FOREIGN_ARTICLES and not self.starts(start)
        )  # "La Jolla", "Las Vegas", "La Caleta"
        if keys[start] not in _PLACE_NOUNS:
            while start < end and self._not_first(start):
                after_place_word |= keys[start] in PLACE_PREPOSITIONS.get(self.lang, "").split()
                start += 1
        while end > start and self._not_last(end - 1):
            end -= 1
        if start >= end or len(doc[start].text) < 2:
            return None
        words = [t for t in doc[start:end] if not t.is_punct]
        if any(t.like_num or any(c.isdigit() for c in t.text) for t in words):
            return None
        parts = nn.tokens(doc[start:end].text)
        if all(t.text.isupper() for t in words if t.is_alpha) and any(t.is_alpha for t in words):
            known = (len(parts) == 1 and parts[0] in nn.PLACE_ACRONYMS) or parts in nn.KNOWN_PLACES
            return (start, end, "place") if known else None
        if parts in nn.KNOWN_PLACES or (start in self.in_place and end <= self.in_place[start][1]):
            s, e = self.in_place.get(start, (start, end))
            if self.lang != "en" and self._article_before(s):
                return (s, e, "thing")  # "el Madrid", "el Ibiza": a club, a car
            return (s, e, "place")
        if self._never_a_name(start, end):
            return None
        if kind == "person":
            decided = self._person_or_not(start, end, parts, after_place_word)
            if decided is None:
                return None
            kind = decided
        elif kind == "place" and (self._brand(parts) or self._titled(start, end) or self._event(parts)):
            kind = "thing"
        elif kind == "place" and end < len(doc) and doc[end].text in ("'s", "’s"):
            kind = "person"  # "in Marta's car": Marta is whose the car is
        return (start, end, kind)

    def place_stands(self, start: int, end: int) -> bool:
        """Whether a well-known place found by name alone is that place here (not "el Madrid", "my Paris", a title)."""
        if self._in_quotes(start, end) or self._possessed(start):
            return False
        if self.lang != "en" and self._article_before(start):
            return False
        return not (end - start == 1 and self.keys[start] in self.any_stop and not self.doc[start].text.isupper())

    def _person_or_not(self, start: int, end: int, parts: tuple[str, ...], after_place_word: bool) -> str | None:
        """The kind of a name the pipeline took for a person: "person" unless something says otherwise; None when
        it is no name at all."""
        keys = self.keys[start:end]
        many = end - start > 1
        if self.lang == "en" and not many and nn.common_en(keys[0]):
            return None  # "Yoga class", "upper deck Economy"
        placed = (many and (keys[0] in nn.PLACE_FIRST or keys[-1] in nn.PLACE_LAST)) or keys[-1].endswith(
            _STREET_SUFFIXES
        )
        if after_place_word or placed or self._place_before(start):
            return "place"
        if self._brand(parts) or self._titled(start, end) or (many and self._event(parts)):
            return "thing"
        if many and keys[0] in self.stop and not self.starts(start):
            return "thing"  # a title: "All Saints", "Get Out"
        if self.lang == "en" and many:
            if any(self.keys[i] in self.stop and self.doc[i].text[:1].isupper() for i in range(start + 1, end)):
                return "thing"  # "Fanola No Yellow", "One Flew Over"
            if "of" in keys or "the" in keys:  # "Temple of Olympian Zeus", "Lord of the Rings"
                return "place" if any(k in nn.PLACE_LAST or k in nn.PLACE_FIRST for k in keys) else "thing"
            if sum(1 for k in keys if k.isalpha() and nn.common_en(k)) >= min(2, len(keys)):
                return "thing"  # "Death Star", "Diet Coke", "Whitmore Hot Tub"
        if end < len(self.doc) and self.doc[end].is_digit:
            return "thing"  # "Fahrenheit 451", "Windows 11"
        if self._article_before(start) or self._possessed(start):
            return _WEAK_THING
        if many and any((k,) in nn.KNOWN_PLACES for k in keys):
            return "place"  # "Universal Studios Florida", "Ancient Egypt"
        return "person"

    def _never_a_name(self, start: int, end: int) -> bool:
        keys = self.keys[start:end]
        if all(k in _NEVER_ALONE or k in self.any_stop or nn.LAUGHTER.match(k) for k in keys if k.isalnum()):
            return True
        if end - start == 1:
            if keys[0] in self.lower:
                return True  # "Yoga" where the entry also writes "yoga"
            if self._ing(keys[0]):
                return True
        return False

    def _not_first(self, i: int) -> bool:
        """Whether token `i`, first in a name, is no part of it."""
        text, key = self.doc[i].text, self.keys[i]
        return (
            key in self.leading
            or not text[:1].isupper()
            or motion(text, self.lang)
            or key in nn.INTERJECTIONS
            or nn.LAUGHTER.match(key) is not None
            or key in nn.WEEKDAYS_MONTHS
            or key in nn.GOD
            or i in self.holiday
            or (self.starts(i) and self._sentence_word(key) and not self._head_follows(i))
        )

    def _head_follows(self, i: int) -> bool:
        """Whether a place or event word follows token `i` inside a name ("Rice University", "Hyde Park")."""
        return (
            i + 1 < len(self.doc)
            and self.doc[i + 1].text[:1].isupper()
            and (self.keys[i + 1] in nn.PLACE_LAST or self.keys[i + 1] in nn.THING_LAST)
        )

    def _sentence_word(self, key: str) -> bool:
        """Whether a word that starts a sentence is there as a word, not a name ("But", "Making", "Apparently")."""
        if key in self.any_stop or key in self.lower:
            return True
        return self.lang == "en" and (self._ing(key) or nn.common_en(key) or (len(key) >= 5 and key.endswith("ly")))

    def _ing(self, key: str) -> bool:
        """An English -ing word ("Kayaking", "Making"): a verb or a noun, not a name."""
        return self.lang == "en" and len(key) >= 6 and key.endswith("ing")

    def _not_last(self, i: int) -> bool:
        token = self.doc[i]
        return token.is_punct or i in self.holiday or (token.text.islower() and self.keys[i] in self.any_stop)

    def _compound(self, start: int, end: int) -> tuple[int, int]:
        """The span grown over hyphens written without spaces ("Inter-Milan", "U-Bahn"), which some tokenizers
        split."""
        doc = self.doc
        while (
            start >= 2
            and doc[start - 1].text == "-"
            and not doc[start - 2].whitespace_
            and not doc[start - 1].whitespace_
        ):
            start -= 2
        while end + 1 < len(doc) and doc[end].text == "-" and not doc[end - 1].whitespace_ and not doc[end].whitespace_:
            end += 2
        return start, end

    def _place_before(self, i: int) -> bool:
        """Whether a word that only goes before places goes before token `i` ("near Aspen", "cerca de Llanes")."""
        before = tuple(self.keys[max(0, i - 2) : i])
        return bool(before) and (before[-1] in _PLACE_WORDS or before in _PLACE_PAIRS)

    def _article_before(self, i: int) -> bool:
        j = i - 1
        if j < 0:
            return False
        prev = self.doc[j]
        return self.keys[j] in self.articles and (prev.text.islower() or self.starts(j))

    def _possessed(self, i: int) -> bool:
        return i > 0 and (self.keys[i - 1] in _POSSESSIVES or self.doc[i - 1].text in ("'s", "’s"))

    def _brand(self, parts: tuple[str, ...]) -> bool:
        return bool(parts) and (parts[0] in nn.BRANDS or " ".join(parts) in nn.BRANDS)

    @staticmethod
    def _event(parts: tuple[str, ...]) -> bool:
        return bool(parts) and parts[-1] in nn.THING_LAST

    def _titled(self, start: int, end: int) -> bool:
        """Quoted on its own, or followed by "by" and a name: the title of a work."""
        if self._in_quotes(start, end):
            return True
        doc = self.doc
        return end + 1 < len(doc) and self.keys[end] == "by" and doc[end + 1].text[:1].isupper()

    def starts(self, i: int) -> bool:
        """Whether token `i` starts a sentence (ingest/spacy_pipelines.py, `starts_sentence`)."""
        if i not in self._starts:
            self._starts[i] = starts_sentence(self.doc, i)
        return self._starts[i]

    def _covered(self, phrases: frozenset[tuple[str, ...]], capitalised: bool) -> set[int]:
        return {i for s, e in self._spans(phrases, capitalised) for i in range(s, e)}

    def _spans(self, phrases: frozenset[tuple[str, ...]], capitalised: bool) -> list[tuple[int, int]]:
        """Token spans where one of `phrases` is written, longest first, left to right; with `capitalised`, only
        where it starts with a capital."""
        pieces, owner = self._pieces, self._owner
        longest = max((len(p) for p in phrases), default=0)
        out: list[tuple[int, int]] = []
        k = 0
        while k < len(pieces):
            hit = 0
            if k == 0 or owner[k] != owner[k - 1]:
                for n in range(min(longest, len(pieces) - k), 0, -1):
                    if tuple(pieces[k : k + n]) in phrases and (
                        k + n == len(pieces) or owner[k + n] != owner[k + n - 1]
                    ):
                        hit = n
                        break
            if hit and (not capitalised or self.texts[owner[k]][:1].isupper()):
                out.append((owner[k], owner[k + hit - 1] + 1))
                k += hit
            else:
                k += 1
        return out

    def _in_quotes(self, start: int, end: int) -> bool:
        """Whether the name is all that stands between quotation marks, but for function words ("“The Office”");
        a name inside quoted speech («Esa casa es de Pep») is not."""
        span = self.quoted.get(start)
        if span is None or end > span[1]:
            return False
        rest = [*range(span[0], start), *range(end, span[1])]
        return all(self.doc[i].is_punct or self.keys[i] in self.any_stop for i in rest)

    def _quoted(self) -> dict[int, tuple[int, int]]:
        """For each token between quotation marks (« », “ ”, " "), the quoted tokens' span."""
        inside: dict[int, tuple[int, int]] = {}
        closer: str | None = None
        opened = 0
        for t in self.doc:
            if closer is not None and t.text == closer:
                inside.update(dict.fromkeys(range(opened, t.i), (opened, t.i)))
                closer = None
            elif closer is None and t.text in _QUOTE_PAIRS:
                closer, opened = _QUOTE_PAIRS[t.text], t.i + 1
        return inside
