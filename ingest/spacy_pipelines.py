"""The spaCy pipeline for each language, loaded once per process.

A production pipeline (a statistical one installed as a Python package, `fr_core_news_sm` by default) is used where
`MEMORA_SPACY_PIPELINES` names one for the language and it is installed; otherwise, and for Spanish, whose pipelines on
PyPI are not spaCy-3.8-compatible, a rule pipeline built on `spacy.blank(lang)`: a sentencizer and an `EntityRuler`
with patterns for capitalised name sequences, kinship words ("mi tía Carmen", "aunt Mary", "ma tante Claire") and
places named after a person or a street ("la casa de Pep", "calle Mayor", "Mary's house"). A pipeline named but not
installed is reported once in the log and the rules stand in: never an error, never a lost write. The project's
gazetteer (its declared names) is applied after the pipeline (ingest/recognition.py), whatever the pipeline.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from graph.settings import get_settings

log = logging.getLogger(__name__)

LANGUAGES = ("es", "en", "fr")
# Components a statistical pipeline does not need for names: left out when loading (faster, less memory).
_NOT_NEEDED = ["parser", "lemmatizer", "trainable_lemmatizer", "morphologizer", "attribute_ruler", "tagger", "senter"]

KINSHIP = {
    "es": "tía tia tío tio abuela abuelo prima primo hermana hermano madrina padrino cuñada cuñado suegra suegro "
    "sobrina sobrino nieta nieto mamá papá amiga amigo vecina vecino doña don señora señor",
    "en": "aunt uncle grandma grandpa grandmother grandfather cousin sister brother niece nephew mom dad "
    "mum friend neighbour neighbor mrs mr ms",
    "fr": "tante oncle mamie papi grand-mère grand-père cousine cousin sœur soeur frère niece nièce neveu "
    "copine copain amie ami voisine voisin madame monsieur",
}
PLACE_OF = {  # "<noun> de X": a place named after someone or something
    "es": (
        "casa piso finca pueblo barrio bar restaurante colegio escuela hospital iglesia parque playa tienda "
        "calle plaza avenida paseo",
        "de del",
    ),
    "en": ("", ""),
    "fr": (
        "maison appartement village quartier café restaurant école hôpital église parc plage rue place avenue "
        "boulevard",
        "de du des",
    ),
}
STREET = {"es": "calle plaza avenida paseo", "en": "", "fr": "rue place avenue boulevard"}
PLACE_PREPOSITIONS = {"es": "en desde hacia", "en": "in", "fr": "à a en"}
# Prepositions, then an article, before a name: a place ("en el Casco Viejo", "por la Concha", "al Prado"); a person
# takes no article in the standard language.
ARTICLE_PLACE = {
    "es": ("en desde hacia hasta por de a", "el la los las", "al del"),
    "en": ("", "", ""),
    "fr": ("à a de dans vers", "la le les l'", "au aux du des"),
}
# A verb of going or coming, then "to/from": a place ("volvimos a Bilbao", "vino de Madrid", "moved to Lisbon"); the
# personal "a" of Spanish ("vi a Marta") follows other verbs.
MOTION = {
    "es": (
        r"^(fui|fue|fuimos|fuisteis|fueron|ir|irse|irnos|iba|íbamos|ibamos|iban|voy|vas|va|vamos|van|volv\w*|vuelv\w*"
        r"|lleg\w*|viaj\w*|mud\w*|vin\w*|vien\w*|venir|vengo|traj\w*|marcha\w*|march[eéó]|escapa\w*|regres\w*)$",
        "a de desde hacia hasta",
    ),
    "en": (
        r"^(go|goes|going|went|gone|moved?|moves|moving|fl(y|ies|ew|own|ying)|travel\w*|drove|drive|driving|came|come"
        r"|comes|coming|return\w*|arriv\w*|head\w*|back)$",
        "to from",
    ),
    "fr": (
        r"^(vais|vas|va|allons|allez|vont|aller|all[ée]e?s?|partir|parti\w*|pars|part|rentr\w*|revenu\w*|venu\w*"
        r"|viens|vient|venons|reviens|revient|arriv\w*|voyag\w*)$",
        "à a de en",
    ),
}
CONNECTORS = {"es": "de del", "en": "of", "fr": "de du"}
POSSESSIVE_PLACE_EN = "house place flat farm home"

_lock = threading.Lock()
_pipelines: dict[str, tuple[Any, str]] = {}
_reported: set[str] = set()


def configured() -> dict[str, str]:
    """`MEMORA_SPACY_PIPELINES` as {lang: package}; malformed items are reported and skipped."""
    out: dict[str, str] = {}
    for item in get_settings().spacy_pipelines.split(","):
        if not item.strip():
            continue
        lang, sep, package = item.partition("=")
        if not sep or not lang.strip() or not package.strip():
            _report_once(f"bad:{item}", "MEMORA_SPACY_PIPELINES: %r is not lang=package; ignored", item.strip())
            continue
        out[lang.strip().lower()] = package.strip()
    return out


def pipeline(lang: str) -> tuple[Any, str]:
    """(nlp, name) for `lang`: the configured package if installed, else the rule pipeline. Loaded once."""
    with _lock:
        if lang not in _pipelines:
            _pipelines[lang] = _load(lang)
        return _pipelines[lang]


def _load(lang: str) -> tuple[Any, str]:
    import spacy

    package = configured().get(lang)
    if package:
        try:
            return spacy.load(package, exclude=_NOT_NEEDED), package
        except (OSError, ImportError, ValueError) as exc:
            _report_once(
                f"missing:{lang}:{package}",
                "spaCy pipeline %s for %r is not available (%s); using the rule pipeline instead",
                package,
                lang,
                str(exc)[:200],
            )
    return rule_pipeline(lang), f"rules:{lang}"


def rule_pipeline(lang: str) -> Any:
    """`spacy.blank(lang)` + sentencizer + EntityRuler (labels PER, LOC), from the word lists above."""
    import spacy

    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    ruler: Any = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
    ruler.add_patterns(patterns(lang))
    return nlp


def patterns(lang: str) -> list[dict[str, Any]]:
    """Token patterns of the rule pipeline; the longest match wins where they overlap."""
    name = {"IS_TITLE": True, "LENGTH": {">=": 2}}
    inner = {"IS_TITLE": True, "LENGTH": {">=": 2}, "IS_SENT_START": False}
    kin = {"LOWER": {"IN": KINSHIP.get(lang, "").split()}}
    connectors = {"LOWER": {"IN": CONNECTORS.get(lang, "").split()}}
    out: list[dict[str, Any]] = [
        # A capitalised sequence inside a sentence ("con Marta Puig", "Juan de Haro"): a person unless told otherwise.
        {"label": "PER", "pattern": [inner, {**name, "OP": "*"}]},
        {"label": "PER", "pattern": [inner, connectors, name]},
        {"label": "PER", "pattern": [kin, name, {**name, "OP": "*"}]},
    ]
    nouns, of = PLACE_OF.get(lang, ("", ""))
    if nouns:
        out.append(
            {
                "label": "LOC",
                "pattern": [{"LOWER": {"IN": nouns.split()}}, {"LOWER": {"IN": of.split()}}, name, {**name, "OP": "*"}],
            }
        )
    if STREET.get(lang):
        out.append({"label": "LOC", "pattern": [{"LOWER": {"IN": STREET[lang].split()}}, name, {**name, "OP": "*"}]})
    possessive = [name, {"ORTH": {"IN": ["'s", "’s"]}}, {"LOWER": {"IN": POSSESSIVE_PLACE_EN.split()}}]
    if lang == "en":
        out.append({"label": "LOC", "pattern": possessive})
    prepositions = PLACE_PREPOSITIONS.get(lang, "").split()
    if prepositions:
        out.append({"label": "LOC", "pattern": [{"LOWER": {"IN": prepositions}}, inner, {**name, "OP": "*"}]})
    before, articles, joined = ARTICLE_PLACE.get(lang, ("", "", ""))
    leads: list[list[dict[str, Any]]] = []
    if before:
        leads.append([{"LOWER": {"IN": before.split()}}, {"LOWER": {"IN": articles.split()}}])
        leads.append([{"LOWER": {"IN": joined.split()}}])
    if lang in MOTION:
        leads.append([{"LOWER": {"REGEX": MOTION[lang][0]}}, {"LOWER": {"IN": MOTION[lang][1].split()}}])
    for lead in leads:  # the name may go on past a connector ("en el Peine del Viento")
        out.append({"label": "LOC", "pattern": [*lead, inner, {**name, "OP": "*"}]})
        out.append(
            {"label": "LOC", "pattern": [*lead, inner, {**name, "OP": "*"}, connectors, name, {**name, "OP": "*"}]}
        )
        if lang == "en":  # "went to Tom's house": the house, not Tom
            out.append({"label": "LOC", "pattern": [*lead, *possessive]})
    return out


def motion(word: str, lang: str) -> bool:
    """Whether `word` is a verb of going or coming in `lang`: a place pattern's first token, never part of the name."""
    return lang in MOTION and re.match(MOTION[lang][0], word.lower()) is not None


def loaded() -> dict[str, str]:
    """Which pipeline serves each language loaded so far (for logs and benchmarks)."""
    with _lock:
        return {lang: name for lang, (_, name) in _pipelines.items()}


def _report_once(key: str, message: str, *args: object) -> None:
    if key not in _reported:
        _reported.add(key)
        log.warning(message, *args)
