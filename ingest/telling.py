"""What a sentence tells, read from its words alone (English, Spanish, French): whether it may tell an event
rather than greet, react or ask; whether it narrates an act of whoever tells it; where it joins two things it says.
The extractive summariser (`ingest/summarise.py`) chooses among the pieces these rules let through.
"""

from __future__ import annotations

import re

# What a sentence's voice adds to its weight in the summariser: an act narrated by who lived it, and (against it)
# words addressed to the listener.
ACT_WEIGHT = 3.0
SECOND_PERSON_WEIGHT = 3.0
MIN_CONTENT_WORDS = 3
SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+|\n+")
# Where a sentence joins two things it says: a dash, a semicolon, "and it was", "but", "so", "because", "which".
# Each part is a candidate line of its own, so a line spends its words on the act and not on what was felt about it.
CLAUSE_BREAK = re.compile(
    r"\s+[-–—]+\s+|;\s+"
    r"|,\s+(?=(?:and (?:it|that|this|i|we|they|she|he)|but|so|because|which|pero|porque|y (?:fue|era)|mais|car)\b)"
    r"|\s+(?=(?:but|because|porque|pero|parce que|and it (?:was|is))\b)",
    re.IGNORECASE,
)
_LEADING_CONJUNCTION = re.compile(r"^(?:and|but|so|because|which|pero|porque|y|mais|car)\s+(?=\S)", re.IGNORECASE)
DATE_WORDS = re.compile(r"\b(1[89]\d\d|20\d\d)\b|\b\d{1,2}[/-]\d{1,2}\b")
MONTHS = {
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "janvier",
    "fevrier",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
    "verano",
    "invierno",
    "primavera",
    "otono",
    "summer",
    "winter",
    "spring",
    "autumn",
    "ete",
    "hiver",
    "navidad",
    "christmas",
}
STOP_WORDS = set(
    """
a al algo ante como con contra cual cuando de del desde donde dos el ella ellas ello ellos en entre era eran es esa
ese eso esta estaba este esto fue fueron ha habia han hasta la las le les lo los mas me mi mis muy nada ni no nos
nosotros o os otra otro para pero poco por porque que quien se ser si sin sobre su sus tambien te tenia todo todos
tu un una uno unos y ya yo the and of to in on at for with was were is are be been it its this that these those we
our you your he she they them his her i my me not no but or as by from had have has a an le la les un une des et de
du en est il elle ils nous vous je pas que qui dans pour sur avec au aux ce cette son sa ses mais ou
""".split()
)


# Said to keep a conversation going, not to tell anything: a sentence made mostly of these is never an event.
PHATIC = set(
    """
hey hi hello hola bonjour salut wow oh ah aw awww yay haha lol omg yeah yes yep sure ok okay cool great awesome nice
amazing lovely wonderful fantastic thanks thank gracias merci congrats congratulations felicidades bye adios
goodbye see soon care glad good really so totally definitely absolutely guess mean know right well cheers
""".split()
)
ANNOTATION = re.compile(r"\[[^\]]*\]")  # [image: ...], [laughs]: about the recording, not what happened
_FIRST_PERSON = {"i", "we", "my", "our", "me", "us", "yo", "nosotros", "mi", "mis", "nuestro", "nuestra", "je", "nous"}
# Addressed to the listener: a reaction to what they told, not something that happened to the speaker.
_SECOND_PERSON = {"you", "your", "yours", "tu", "tus", "usted", "vous", "votre", "toi"}
# When, said relative to the telling: the mark of a sentence that reports something that happened or will.
_WHEN = set(
    """
yesterday today tonight tomorrow weekend ago last recently lately soon finally first week month year
ayer hoy anoche manana semana mes ano pasado pasada recien finalmente primera primer
hier aujourd demain semaine mois annee dernier derniere recemment enfin premiere
""".split()
)
# A narrated act: who tells it as its subject, then within a few words a verb of something done or about to be
# done ("I just signed up", "we went", "fui", "he empezado", "j'ai commencé"): the commonest shape of an event in a
# diary or a conversation about one's life. Raw lower-case tokens, accents kept (they mark the Spanish preterite).
_TOKEN = re.compile(r"[\w']+")
_SUBJECTS = {"i", "we", "i've", "we've", "i'd", "we'd", "i'm", "we're", "i'll", "we'll", "yo", "nosotros", "j'ai"}
_SUBJECTS |= {"je", "nous", "on"}
_ACT_WORDS = set(
    """
went took got ran made saw met did gave found began bought came felt left lost won wrote had heard told sent threw
brought caught held kept led read sold spent taught thought understood woke wore chose drove flew ate fell forgot
just finally recently already started been gonna going
fui fuimos estuve estuvimos tuve tuvimos hice hicimos di dimos vi vimos conocí empecé acabo acabé voy vamos he hemos
suis sommes vais allons avons
""".split()
)
_PAST_ENDINGS = ("ed", "é", "í", "ado", "ido", "ée", "és", "is", "it")
_AUXILIARIES = {"he", "hemos", "j'ai", "avons", "ai"}
_PARTICIPLES = ("ado", "ada", "ido", "ida", "é", "ée", "i", "u", "is", "it")
_PRETERITES = ("é", "amos", "imos")


def content(ws: list[str]) -> list[str]:
    return [w for w in ws if len(w) > 2 and w not in STOP_WORDS and w not in PHATIC and not w.isdigit()]


def tells(raw: str, ws: list[str]) -> bool:
    """Whether a sentence may tell an event: not a question, not a greeting or a reaction, enough content words."""
    if raw.rstrip().endswith("?") or not ws:
        return False
    return len(content(ws)) >= MIN_CONTENT_WORDS


def pieces(body: str) -> list[tuple[int, str]]:
    """The body's sentences cut at their clause breaks (`CLAUSE_BREAK`), each piece with its sentence's place."""
    return [
        (n, " ".join(part.split()))
        for n, sentence in enumerate(SENTENCE_BREAK.split(body))
        for part in CLAUSE_BREAK.split(sentence)
    ]


def joined(parts: list[tuple[int, int, str]]) -> str:
    """Pieces (place, sentence, text) as one line: those of one sentence after a comma, each sentence ended."""
    sentences: dict[int, list[str]] = {}
    for _, sentence, raw in parts:
        sentences.setdefault(sentence, []).append(raw.rstrip(",;:"))
    return " ".join(opened(ended(", ".join(said))) for said in sentences.values())


def opened(piece: str) -> str:
    """A piece that opens a line: without the conjunction that tied it to what was left out, capitalised."""
    bare = _LEADING_CONJUNCTION.sub("", piece, count=1) or piece
    return bare[:1].upper() + bare[1:]


def ended(raw: str) -> str:
    return raw if raw[-1] in ".!…" else raw + "."


def voice(raw: str, ws: set[str]) -> float:
    """Told by who lived it (first person), as an act of theirs (`narrates`) and placed in time ("yesterday", "last
    week") counts for a sentence; addressed to the listener counts against it."""
    act = narrates(raw)
    told = (1.5 if act or _FIRST_PERSON & ws else 0.0) + (ACT_WEIGHT if act else 0.0)
    return told - (SECOND_PERSON_WEIGHT if _SECOND_PERSON & ws else 0.0) + (1.0 if _WHEN & ws else 0.0)


def _acts(verb: str) -> bool:
    return verb in _ACT_WORDS or (len(verb) > 3 and verb.endswith(_PAST_ENDINGS))


def narrates(raw: str) -> bool:
    """A first-person subject followed within three words by a verb of a done or planned act; in Spanish, which
    drops the subject, a first-person preterite ("dejé", "llegamos") among the opening words or a perfect ("he
    ayudado", "j'ai commencé")."""
    tokens = _TOKEN.findall(raw.lower().replace("\u2019", "'"))
    for at, token in enumerate(tokens):
        following = tokens[at + 1 : at + 4]
        subject = token in _SUBJECTS or token.startswith(("i'", "we'"))
        if subject and any(_acts(verb) for verb in following):
            return True
        if token in _AUXILIARIES and following and following[0].endswith(_PARTICIPLES):
            return True
        if at < 5 and len(token) > 3 and token.endswith(_PRETERITES):
            return True
    return False
