"""The language of an entry, detected from its words (not assumed), so recognition picks the right spaCy pipeline.

Stopword profiles: the share of an entry's words that are among the most frequent function words of Spanish,
English or French. Function words make up a third to a half of running text in all three, and their lists barely
overlap, so a few dozen words decide; a text with too few of them (a list of names, a single word) is undecided and
falls back to the project's default. No model, no download, microseconds per entry.
"""

from __future__ import annotations

from graph.textnorm import words

# Folded (accents stripped, lower case). Words shared by two languages ("de", "la", "a", "en", "son") are left out.
PROFILES: dict[str, frozenset[str]] = {
    "es": frozenset(
        """
        el los las del al y o pero porque como cuando donde quien con sin por para segun sobre entre hasta desde
        hacia un una unos unas mi mis tus su sus nuestro nuestra yo ella ellos ellas nosotros se nos
        lo es fue era estaba esta estoy estamos hay muy mas tambien ya todavia aun ayer hoy manana siempre nunca
        hoy ahora despues antes pues aunque tia tio abuela abuelo mama casa hemos ha han fuimos habia
    """.split()
    ),
    "en": frozenset(
        """
        the an and or but that which who whom when where why how with without for from to of in on at by about
        into after before is was were are be been being have has had do did does i you she it we they me him
        her us them my your his its our their this these those not so very just then than there here today
        yesterday tomorrow always never went said would could will can should
    """.split()
    ),
    "fr": frozenset(
        """
        le les des du au aux et ou mais qui quand avec sans pour par chez dans sur sous vers une je il
        elle nous vous ils elles moi toi lui leur leurs mon ma mes ton ta tes sa ses notre votre est etait
        etaient sont suis sommes ai avons avait ont fait tres aussi deja hier aujourd demain toujours jamais puis
        alors apres avant ne pas plus cette ce ces tante oncle maison
    """.split()
    ),
}
MIN_HITS = 3
"""Fewer function words than this: undecided."""


def detect_language(text: str, default: str | None = None) -> str | None:
    """'es', 'en' or 'fr' by the profile with most function words in `text`; `default` when undecided (too few of
    them, or a tie)."""
    tokens = words(text[:4000])
    scores = {lang: sum(1 for t in tokens if t in profile) for lang, profile in PROFILES.items()}
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    best, score = ranked[0]
    if score < MIN_HITS or score == ranked[1][1]:
        return default
    return best
