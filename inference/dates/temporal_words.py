"""Calendar words and phrases for temporal expressions (es/en/fr), all in folded form (lower-case, no accents).

Pure data, kept apart from the grammar in `temporal.py` so the vocabulary can grow without touching it. Values that
are regex fragments say so; everything else is a literal folded word.
"""

from __future__ import annotations

MONTHS_ES: dict[str, int] = {
    "enero": 1,
    "febrero": 2,
    "marzo": 3,
    "abril": 4,
    "mayo": 5,
    "junio": 6,
    "julio": 7,
    "agosto": 8,
    "septiembre": 9,
    "setiembre": 9,
    "octubre": 10,
    "noviembre": 11,
    "diciembre": 12,
}
MONTHS_EN: dict[str, int] = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
}
MONTHS_FR: dict[str, int] = {
    "janvier": 1,
    "fevrier": 2,
    "mars": 3,
    "avril": 4,
    "mai": 5,
    "juin": 6,
    "juillet": 7,
    "aout": 8,
    "septembre": 9,
    "octobre": 10,
    "novembre": 11,
    "decembre": 12,
}
# Abbreviations as people write them in chats and questions ("31 Dec 2023", "Jan 5, 2024", "5 dic"), with or without
# a dot; "ago" (English) and "set" are left out.
MONTH_ABBREVIATIONS: dict[str, int] = {
    "jan": 1,
    "ene": 1,
    "janv": 1,
    "feb": 2,
    "fev": 2,
    "fevr": 2,
    "mar": 3,
    "apr": 4,
    "abr": 4,
    "avr": 4,
    "jun": 6,
    "jul": 7,
    "juil": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
    "dic": 12,
}
MONTHS: dict[str, int] = {**MONTHS_ES, **MONTHS_EN, **MONTHS_FR, **MONTH_ABBREVIATIONS}

# Month names that are also everyday words or names ("Jan", "mar"), and every abbreviation: recognised only with a
# day, a year, a qualifier or a preposition.
AMBIGUOUS_MONTHS: frozenset[str] = frozenset({"may", "march", "mars", *MONTH_ABBREVIATIONS})

SEASONS_ES: dict[str, str] = {"primavera": "spring", "verano": "summer", "otono": "autumn", "invierno": "winter"}
SEASONS_EN: dict[str, str] = {
    "spring": "spring",
    "summer": "summer",
    "autumn": "autumn",
    "fall": "autumn",
    "winter": "winter",
}
SEASONS_FR: dict[str, str] = {"printemps": "spring", "ete": "summer", "automne": "autumn", "hiver": "winter"}
SEASONS: dict[str, str] = {**SEASONS_ES, **SEASONS_EN, **SEASONS_FR}

# Seasons in the plural ("los veranos", "summers", "les hivers"): every year's, read like a season without a year.
# "springs" and "falls" are left out: more often water than seasons.
SEASON_PLURALS: dict[str, str] = {
    "primaveras": "primavera",
    "veranos": "verano",
    "otonos": "otono",
    "inviernos": "invierno",
    "summers": "summer",
    "autumns": "autumn",
    "winters": "winter",
    "etes": "ete",
    "automnes": "automne",
    "hivers": "hiver",
}

# Season words that are also common words ("a été", "to fall"): need an article, preposition or qualifier.
AMBIGUOUS_SEASONS: frozenset[str] = frozenset({"ete", "fall"})

WEEKDAYS_ES: dict[str, int] = {
    "lunes": 0,
    "martes": 1,
    "miercoles": 2,
    "jueves": 3,
    "viernes": 4,
    "sabado": 5,
    "domingo": 6,
}
WEEKDAYS_EN: dict[str, int] = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}
WEEKDAYS_FR: dict[str, int] = {
    "lundi": 0,
    "mardi": 1,
    "mercredi": 2,
    "jeudi": 3,
    "vendredi": 4,
    "samedi": 5,
    "dimanche": 6,
}
WEEKDAYS: dict[str, int] = {**WEEKDAYS_ES, **WEEKDAYS_EN, **WEEKDAYS_FR}

# Holiday key -> (regex fragments over folded text, (month, day) first day, (month, day) last day, precision).
HOLIDAYS: dict[str, tuple[tuple[str, ...], tuple[int, int], tuple[int, int], str]] = {
    "christmas_eve": (
        (
            r"nochebuena",
            r"noche\s+buena",
            r"christmas\s+eve",
            r"xmas\s+eve",
            r"reveillon\s+de\s+noel",
            r"veille\s+de\s+noel",
        ),
        (12, 24),
        (12, 24),
        "day",
    ),
    "christmas_day": (
        (r"dia\s+de\s+navidad", r"christmas\s+day", r"jour\s+de\s+noel"),
        (12, 25),
        (12, 25),
        "day",
    ),
    "christmas": ((r"navidad(?:es)?", r"christmas", r"xmas", r"noel"), (12, 24), (12, 26), "approx"),
    "new_years_eve": (
        (
            r"nochevieja",
            r"noche\s+vieja",
            r"fin\s+de\s+ano",
            r"new\s+year'?s\s+eve",
            r"saint[- ]sylvestre",
            r"st[- ]sylvestre",
            r"reveillon\s+du\s+nouvel\s+an",
            r"cap\s+d'any",
        ),
        (12, 31),
        (12, 31),
        "day",
    ),
    "new_years_day": (
        (
            r"dia\s+de\s+ano\s+nuevo",
            r"ano\s+nuevo",
            r"new\s+year'?s\s+day",
            r"new\s+year'?s",
            r"new\s+year",
            r"jour\s+de\s+l'an",
            r"nouvel\s+an",
        ),
        (1, 1),
        (1, 1),
        "day",
    ),
    "epiphany": (
        (
            r"(?:dia\s+de\s+)?(?:los\s+)?reyes(?:\s+magos)?",
            r"epifania",
            r"epiphany",
            r"epiphanie",
            r"fete\s+des\s+rois",
            r"jour\s+des\s+rois",
        ),
        (1, 6),
        (1, 6),
        "day",
    ),
    "saint_john": (
        (
            r"(?:noche\s+de\s+)?san\s+juan",
            r"sant\s+joan",
            r"(?:saint|st)\.?\s+john'?s\s+(?:eve|day)",
            r"midsummer(?:'?s)?(?:\s+eve)?",
            r"(?:fete\s+de\s+la\s+)?saint[- ]jean",
        ),
        (6, 23),
        (6, 24),
        "range",
    ),
    "saint_george": (
        (r"sant\s+jordi", r"san\s+jorge", r"dia\s+del\s+libro", r"(?:saint|st)\.?\s+george'?s\s+day"),
        (4, 23),
        (4, 23),
        "day",
    ),
    "valentine": (
        (
            r"san\s+valentin",
            r"(?:saint|st)\.?\s+valentine'?s(?:\s+day)?",
            r"valentine'?s(?:\s+day)?",
            r"saint[- ]valentin",
        ),
        (2, 14),
        (2, 14),
        "day",
    ),
    "halloween": ((r"halloween",), (10, 31), (10, 31), "day"),
}

# Easter-based holidays: key -> (regex fragments, days from Easter Sunday to the first and last day, precision).
MOVABLE_HOLIDAYS: dict[str, tuple[tuple[str, ...], int, int, str]] = {
    "holy_week": ((r"semana\s+santa", r"holy\s+week", r"semaine\s+sainte"), -7, 1, "range"),
    "easter": ((r"pascua", r"easter", r"paques"), -2, 1, "approx"),
}

NUMBERS_ES: dict[str, int] = {
    "un": 1,
    "una": 1,
    "uno": 1,
    "dos": 2,
    "tres": 3,
    "cuatro": 4,
    "cinco": 5,
    "seis": 6,
    "siete": 7,
    "ocho": 8,
    "nueve": 9,
    "diez": 10,
    "once": 11,
    "doce": 12,
    "trece": 13,
    "catorce": 14,
    "quince": 15,
    "veinte": 20,
    "treinta": 30,
}
NUMBERS_EN: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
}
NUMBERS_FR: dict[str, int] = {
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "onze": 11,
    "douze": 12,
    "treize": 13,
    "quatorze": 14,
    "quinze": 15,
    "vingt": 20,
    "trente": 30,
}
NUMBERS: dict[str, int] = {**NUMBERS_ES, **NUMBERS_EN, **NUMBERS_FR}

PAIR_WORDS: tuple[str, ...] = (r"un\s+par\s+de", r"a\s+couple\s+of", r"couple\s+of", r"une\s+paire\s+de")

FEW_WORDS: tuple[str, ...] = (
    r"unos\s+pocos",
    r"unas\s+pocas",
    r"unos",
    r"unas",
    r"algunos",
    r"algunas",
    r"pocos",
    r"pocas",
    r"varios",
    r"varias",
    r"a\s+few",
    r"few",
    r"several",
    r"some",
    r"quelques",
    r"plusieurs",
)

UNITS_ES: dict[str, str] = {
    "dia": "day",
    "dias": "day",
    "semana": "week",
    "semanas": "week",
    "mes": "month",
    "meses": "month",
    "ano": "year",
    "anos": "year",
}
UNITS_EN: dict[str, str] = {
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "month": "month",
    "months": "month",
    "year": "year",
    "years": "year",
}
UNITS_FR: dict[str, str] = {
    "jour": "day",
    "jours": "day",
    "semaine": "week",
    "semaines": "week",
    "mois": "month",
    "an": "year",
    "ans": "year",
    "annee": "year",
    "annees": "year",
}
UNITS: dict[str, str] = {**UNITS_ES, **UNITS_EN, **UNITS_FR}

# Decade words -> two-digit decade (resolved against `now`) or a full year.
DECADE_WORDS_ES: dict[str, int] = {
    "veinte": 20,
    "treinta": 30,
    "cuarenta": 40,
    "cincuenta": 50,
    "sesenta": 60,
    "setenta": 70,
    "ochenta": 80,
    "noventa": 90,
    "dos mil": 2000,
}
DECADE_WORDS_EN: dict[str, int] = {
    "twenties": 20,
    "thirties": 30,
    "forties": 40,
    "fifties": 50,
    "sixties": 60,
    "seventies": 70,
    "eighties": 80,
    "nineties": 90,
    "noughties": 2000,
    "aughts": 2000,
}
DECADE_WORDS_FR: dict[str, int] = {
    "vingt": 20,
    "trente": 30,
    "quarante": 40,
    "cinquante": 50,
    "soixante": 60,
    "soixante-dix": 70,
    "quatre-vingt": 80,
    "quatre-vingts": 80,
    "quatre-vingt-dix": 90,
    "deux mille": 2000,
}
DECADE_WORDS: dict[str, int] = {**DECADE_WORDS_ES, **DECADE_WORDS_EN, **DECADE_WORDS_FR}

# Fixed relative phrases: key (its meaning, resolved in `calendar_math.RELATIVE_SPANS`) -> regex over folded text.
# Order matters only for ties between equally long matches at the same place: the first listed wins.
RELATIVE_PHRASES: dict[str, str] = {
    "today": (
        r"hoy|today|aujourd'\s*hui|aujourd\s+hui|esta\s+manana|this\s+morning|ce\s+matin|esta\s+tarde"
        r"|ce\s+soir|this\s+afternoon|tonight|esta\s+noche|cet\s+apres-midi"
    ),
    "yesterday": r"ayer(?:\s+por\s+la\s+(?:manana|tarde|noche))?|yesterday|hier(?:\s+soir)?|anoche|last\s+night",
    "day_before_yesterday": r"anteayer|antier|antes\s+de\s+ayer|the\s+day\s+before\s+yesterday|avant[- ]hier",
    "last_week": (
        r"(?:la\s+)?semana\s+(?:pasada|anterior)|(?:la\s+)?pasada\s+semana|last\s+week|the\s+(?:previous"
        r"\s+week|week\s+before)|(?:la\s+)?semaine\s+(?:derniere|passee)"
    ),
    "this_week": r"esta\s+semana|this\s+week|cette\s+semaine",
    "last_weekend": (
        r"(?:el\s+)?(?:ultimo\s+)?fin\s+de\s+semana\s+(?:pasado|anterior)|(?:el\s+)?(?:pasado|ultimo)"
        r"\s+fin\s+de\s+semana|last\s+weekend|(?:le\s+)?(?:week-?end|week\s+end)\s+(?:dernier|passe)"
        r"|(?:le\s+)?dernier\s+week-?end"
    ),
    "this_weekend": r"este\s+fin\s+de\s+semana|this\s+weekend|ce\s+week-?end",
    "last_month": (
        r"(?:el\s+)?mes\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+mes|last\s+month|the\s+previous\s+month"
        r"|(?:le\s+)?mois\s+(?:dernier|passe)"
    ),
    "this_month": r"este\s+mes|this\s+month|ce\s+mois(?:-ci)?",
    "year_before_last": r"(?:el\s+)?ano\s+antepasado|the\s+year\s+before\s+last",
    "last_year": (
        r"(?:el\s+)?ano\s+(?:pasado|anterior)|(?:el\s+)?pasado\s+ano|last\s+year|the\s+previous\s+year"
        r"|l'annee\s+(?:derniere|passee)|l'an\s+(?:dernier|passe)"
    ),
    "this_year": r"este\s+ano|this\s+year|cette\s+annee",
    "recently": (
        r"recientemente|ultimamente|hace\s+poco|recently|lately|not\s+long\s+ago|recemment|dernierement"
        r"|ces\s+derniers\s+temps|il\s+y\s+a\s+peu|estos\s+(?:ultimos\s+)?dias|these\s+days|ces\s+jours-ci"
    ),
    "other_day": r"(?:el\s+)?otro\s+dia|the\s+other\s+day|l'autre\s+jour",
}

# "early/mid/late" words before a year, decade, month or season -> which third of it.
MODIFIER_PARTS: dict[str, str] = {
    "principios": "early",
    "comienzos": "early",
    "inicios": "early",
    "mediados": "mid",
    "finales": "late",
    "fines": "late",
    "early": "early",
    "beginning of": "early",
    "start of": "early",
    "mid": "mid",
    "middle of": "mid",
    "late": "late",
    "end of": "late",
    "debut": "early",
    "milieu": "mid",
    "mi": "mid",
    "fin": "late",
}
