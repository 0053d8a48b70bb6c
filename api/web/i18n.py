"""The web app's words in Spanish, English and French, chosen by `?lang=` or the browser's Accept-Language (English
when neither names one of the three). Entries are shown in the language they were written in."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request

from api.web.words import STRINGS

LANGUAGES = ("es", "en", "fr")
DEFAULT = "en"

MONTHS = {
    "es": "ene feb mar abr may jun jul ago sep oct nov dic".split(),
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(),
    "fr": "janv févr mars avr mai juin juil août sept oct nov déc".split(),
}


def language(request: Request) -> str:
    """`?lang=` when it names one of the three, else the first of them the browser accepts, else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def translator(lang: str) -> Callable[[str], str]:
    index = LANGUAGES.index(lang) if lang in LANGUAGES else LANGUAGES.index(DEFAULT)

    def t(key: str) -> str:
        return STRINGS[key][index]

    return t
