"""The spaCy pipeline for each language, loaded once per process.

A production pipeline (a statistical one installed as a Python package, `fr_core_news_sm` by default) is used where
`MEMORA_SPACY_PIPELINES` names one for the language and it is installed; otherwise, and for Spanish, whose pipelines on
PyPI are not spaCy-3.8-compatible, a rule pipeline built on `spacy.blank(lang)`: a sentencizer, a component that also
starts a sentence where a line, a quotation, a list item or a question starts (`starts_sentence`), and an
`EntityRuler` with patterns for capitalised name sequences, kinship words ("mi tía Carmen", "aunt Mary", "ma tante
Claire") and places named after a person or a street ("la casa de Pep", "calle Mayor", "Mary's house"). A capitalised
word that starts a sentence is capitalised for that reason alone, so it starts a name only when a second capitalised
word follows it ("Harvey Specter's charisma"); recognition (ingest/recognition.py) then drops greetings and function
words from its edges. A pipeline named but not installed is reported once in the log and the rules stand in: never an
error, never a lost write. The project's gazetteer (its declared names) is applied after the pipeline
(ingest/recognition.py), whatever the pipeline.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
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
        "calle plaza avenida paseo puente puerto pantano embalse cementerio caserío bosque bosques monte sierra "
        "río lago lagos isla cala costa bahía valle ciudad estación aeropuerto hotel museo mercado catedral "
        "castillo palacio jardín universidad facultad instituto residencia ermita monasterio",
        "de del",
    ),
    "en": ("", ""),
    "fr": (
        "maison appartement village quartier café restaurant école hôpital église parc plage rue place avenue "
        "boulevard pont lac forêt gare aéroport hôtel musée marché cathédrale château jardin université lycée "
        "cimetière île",
        "de du des",
    ),
}
STREET = {"es": "calle plaza avenida paseo", "en": "", "fr": "rue place avenue boulevard"}
PLACE_PREPOSITIONS = {"es": "en desde hacia hasta", "en": "in at", "fr": "à a en"}
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
        r"^(fui|fue|fuimos|fuisteis|fueron|ir|irse|irnos|irme|irte|ido|iba|íbamos|ibamos|iban|voy|vas|va|vamos|van"
        r"|volv\w*|vuelv\w*|lleg\w*|viaj\w*|mud\w*|vin\w*|vien\w*|venir|vengo|traj\w*|marcha\w*|march[eéó]"
        r"|escapa\w*|regres\w*|sub(?:imos|ió|í|ir|iendo)|baj(?:amos|ó|é|ar|aron|ábamos|ando))$",
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
CONNECTORS = {"es": "de del", "en": "of van von de da di del du der", "fr": "de du"}
ARTICLES = {"es": "el la los las", "en": "the", "fr": "la le les l'"}
# An article after a connector, inside a name ("Plaza de las Flores", "Juan de la Cruz", "Lord of the Rings").
INNER_ARTICLES = {"es": "el la los las", "en": "the la las los el", "fr": "la le les l'"}
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


_OPENERS = frozenset("«“‘([¿¡")
_QUOTES = frozenset("\"'")
_BULLETS = frozenset("-–—*")
_MARKS = frozenset("•·▪►")
_ENDS = frozenset(".!?…")
_CONTRACTION = re.compile(r"^\w+['’](?:m|s|d|ll|ve|re|t)$", re.IGNORECASE)  # "I’m", "It's": no name


def starts_sentence(doc: Any, i: int) -> bool:
    """Whether token `i` of `doc` starts a sentence: the text's first word, or the first after a line break, a
    sentence's end (also "…" and runs like "...."), an opening quotation mark or bracket, an inverted ¿ or ¡, an emoji,
    a bullet ("•"), a numbered item ("1)"), or a dash that itself starts a line. Chats and diaries break sentences
    with lines and emoji as often as with full stops."""
    if i <= 0:
        return True
    prev = doc[i - 1]
    text = prev.text
    if prev.is_space:
        return "\n" in text or starts_sentence(doc, i - 1)
    if all(c in _ENDS for c in text) or text in _OPENERS or text in _MARKS:
        return True
    if text == ")" and i >= 2 and doc[i - 2].like_num:  # "1) Visit"
        return True
    if text in _QUOTES:  # an opening quote: nothing attached before it
        return i == 1 or bool(doc[i - 2].whitespace_) or doc[i - 2].is_space
    if text in _BULLETS:
        return starts_sentence(doc, i - 1)
    return any(unicodedata.category(c) == "So" for c in text) and not any(c.isalnum() for c in text)


def _mark_sentence_starts(doc: Any) -> Any:
    for token in doc[1:]:
        if not token.is_space and not token.is_sent_start and starts_sentence(doc, token.i):
            token.is_sent_start = True
    return doc


def name_like(token: Any) -> bool:
    """Whether a token is shaped like a name: capitalised, with lower-case letters, at least two letters before any
    hyphen ("Marta", "McGregor", "O'Brien", "Vitoria-Gasteiz"; not "A380", "NBA", "U-Bahn", "iPhone")."""
    text = token.text
    parts = text.split("-")
    if _CONTRACTION.match(text):
        return False
    return (
        len(parts[0]) >= 2
        and text[0].isupper()
        and any(c.islower() for c in text)
        and all(p and all(c.isalpha() or c in "'’" for c in p) for p in parts)
    )


def rule_pipeline(lang: str) -> Any:
    """`spacy.blank(lang)` + sentencizer + sentence starts + EntityRuler (labels PER, LOC), from the lists above."""
    import spacy
    from spacy.language import Language
    from spacy.tokens import Token

    if not Token.has_extension("memora_name"):
        Token.set_extension("memora_name", getter=name_like)
    if not Language.has_factory("memora_sentence_starts"):
        Language.component("memora_sentence_starts", func=_mark_sentence_starts)
    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("memora_sentence_starts")
    ruler: Any = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
    ruler.add_patterns(patterns(lang))
    return nlp


def patterns(lang: str) -> list[dict[str, Any]]:
    """Token patterns of the rule pipeline; the longest match wins where they overlap."""
    name: dict[str, Any] = {"_": {"memora_name": True}}
    inner = {**name, "IS_SENT_START": False}
    first = {**name, "IS_SENT_START": True}
    kin = {"LOWER": {"IN": KINSHIP.get(lang, "").split()}}
    connectors = {"LOWER": {"IN": CONNECTORS.get(lang, "").split()}}
    article = {"LOWER": {"IN": INNER_ARTICLES.get(lang, "").split()}, "OP": "?"}
    initial = {"TEXT": {"REGEX": r"^[A-Z]\.?$"}}
    out: list[dict[str, Any]] = [
        # A capitalised sequence inside a sentence ("con Marta Puig", "Juan de la Cruz", "Vincent van Gogh"): a
        # person unless told otherwise; at a sentence's start only when a second capitalised word follows.
        {"label": "PER", "pattern": [inner, {**name, "OP": "*"}]},
        {"label": "PER", "pattern": [inner, {**name, "OP": "*"}, connectors, article, name, {**name, "OP": "*"}]},
        {"label": "PER", "pattern": [first, inner, {**name, "OP": "*"}]},
        {"label": "PER", "pattern": [inner, initial, name]},
        {"label": "PER", "pattern": [kin, name, {**name, "OP": "*"}]},
    ]
    nouns, of = PLACE_OF.get(lang, ("", ""))
    if nouns:
        place = [{"LOWER": {"IN": nouns.split()}}, {"LOWER": {"IN": of.split()}}, article, name, {**name, "OP": "*"}]
        out.append({"label": "LOC", "pattern": place})
        out.append({"label": "LOC", "pattern": [*place, connectors, article, name, {**name, "OP": "*"}]})
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
