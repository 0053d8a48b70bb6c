"""Names spaCy finds in an entry that are not known entities: the entry's candidates, kept on the entry itself.

Each entry's language is detected (ingest/language.py) and its text goes through that language's pipeline
(ingest/spacy_pipelines.py), a batch at a time with `nlp.pipe`. A name is dropped when the entry already links it:
when one of the project's declared names or aliases the entry may be linked through (its gazetteer, the same
`ProjectLexicon` the alias matcher uses) occurs inside it, or when the entry lists it. What is left is stored on the
entry as parallel lists (`spotted_kinds`, `spotted_names`, `spotted_keys` folded, `spotted_counts`), written in the
same transaction as the entry and deleted with it, so candidates are counted over the entries a viewer may see,
inside the query (graph/candidates.py), and never outlive or outreach their entry. Candidates link nothing: search
and entity analytics are unchanged until a writer confirms one (it then becomes a declared entity).
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
from ingest.language import detect_language
from ingest.spacy_pipelines import KINSHIP, PLACE_OF, PLACE_PREPOSITIONS, STREET, motion, pipeline

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
# Capitalised words that are not names of persons, places or things (weekdays, months, feasts), folded.
NOT_NAMES = frozenset(
    fold(w)
    for w in """
    lunes martes miércoles jueves viernes sábado domingo enero febrero marzo abril mayo junio julio agosto septiembre
    octubre noviembre diciembre navidad nochebuena nochevieja pascua semana santa dios año nuevo reyes hoy ayer
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
    september october november december christmas easter god today yesterday i
    lundi mardi mercredi jeudi vendredi samedi dimanche janvier février mars avril juin juillet août septembre
    octobre novembre décembre noël pâques dieu aujourd'hui hier
""".split()
)
_LEADING = {
    lang: frozenset(
        fold(w) for w in (KINSHIP[lang] + " " + PLACE_PREPOSITIONS[lang] + " mi my ma mon la el le the").split()
    )
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
            with _LOCKS.setdefault(lang, threading.Lock()):  # a pipeline is not promised to be thread-safe
                docs = list(nlp.pipe([items[i][0] for i in idx], batch_size=64))
            for i, doc in zip(idx, docs, strict=True):
                found[i] = _names(doc, lang, items[i][1], known[id(items[i][1])], items[i][2])
        except Exception as exc:  # noqa: BLE001 - recognition is an extra; a failure must never lose the write
            log.warning("name recognition failed for %d %s entries: %s", len(idx), lang, str(exc)[:200])
    return [Recognition(lang, spotted) for lang, spotted in zip(langs, found, strict=True)]


def _names(doc: Any, lang: str, lexicon: ProjectLexicon, known: set[str], listed: list[str]) -> list[Spotted]:
    listed_keys = {fold(n) for n in listed}
    counts: Counter[tuple[str, str]] = Counter()
    shown: dict[str, str] = {}
    leading = _LEADING.get(lang, frozenset())
    for ent in doc.ents:
        kind = KIND_OF_LABEL.get(ent.label_)
        if kind is None:
            continue
        tokens = list(ent)
        if fold(tokens[0].text) not in _PLACE_NOUNS:
            while tokens and (
                fold(tokens[0].text) in leading or not tokens[0].text[:1].isupper() or motion(tokens[0].text, lang)
            ):
                tokens = tokens[1:]
        if not tokens:
            continue
        name = doc[tokens[0].i : tokens[-1].i + 1].text.strip(" \t\n.,;:!?¡¿\"'«»()")
        key = fold(name)
        if len(name) < 2 or len(name) > MAX_NAME or not name[:1].isalpha() or key in NOT_NAMES:
            continue
        if all(w in NOT_NAMES or w in _KIN for w in key.split()):
            continue
        if key in listed_keys or key in known or (kind == "person" and lexicon.find_in(name)):
            continue  # the entry links it already (the gazetteer wins over the pipeline: "Pep Puig" when Pep is known)
        counts[(kind, key)] += 1
        shown.setdefault(key, name)
    best: dict[str, tuple[str, int]] = {}
    for (kind, key), _n in counts.most_common():
        if key not in best:  # one kind per name in an entry: the one the pipeline gave it most
            best[key] = (kind, sum(c for (_, k), c in counts.items() if k == key))
    spotted = [Spotted(kind, shown[key], n) for key, (kind, n) in best.items()]
    return sorted(spotted, key=lambda s: (-s.count, fold(s.name)))[:MAX_PER_ENTRY]
