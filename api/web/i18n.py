"""The web app's words in Spanish, English and French, chosen by `?lang=` (and remembered in a cookie for a year), or
else the browser's Accept-Language (English when neither names one of the three). Entries are shown in the language
they were written in."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request, Response

from api.web.words import STRINGS

LANGUAGES = ("es", "en", "fr")
DEFAULT = "en"
COOKIE = "memora_lang"
KEPT_SECONDS = 365 * 24 * 3600

MONTHS = {
    "es": "ene feb mar abr may jun jul ago sep oct nov dic".split(),
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(),
    "fr": "janv févr mars avr mai juin juil août sept oct nov déc".split(),
}


def language(request: Request) -> str:
    """`?lang=` when it names one of the three, else the one chosen before (its cookie), else the first of them the
    browser accepts, else English."""
    for asked in (request.query_params.get("lang", ""), request.cookies.get(COOKIE, "")):
        if asked in LANGUAGES:
            return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def remember_language(request: Request, response: Response) -> None:
    """A language chosen by `?lang=` is kept for the next pages: a cookie that names a language only (no one), sent
    on links from other sites too (Lax) so a link opens in it, never read by a script."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES and request.cookies.get(COOKIE) != asked:
        response.set_cookie(
            COOKIE,
            asked,
            max_age=KEPT_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


def translator(lang: str) -> Callable[[str], str]:
    index = LANGUAGES.index(lang) if lang in LANGUAGES else LANGUAGES.index(DEFAULT)

    def t(key: str) -> str:
        return STRINGS[key][index]

    return t
