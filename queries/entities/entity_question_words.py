"""What makes a question an entity question, in Spanish, English and French: patterns over the folded text
(lower-case, no accents), and the words that name the kind of entity asked for.

`classify` knows nothing of the project: it says which question this is (co-occurrence, timeline, importance or
similarity) and which kind of answer it wants; `queries/entities/entity_questions.py` finds the entity it names among
what the
viewer may see and answers it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.textnorm import fold, words

# Most specific first: "¿quién se parece a Pep?" is a similarity question, not a co-occurrence one.
SIMILAR = re.compile(
    r"""\b(?:
    se\ parecen?\ a | parecid[oa]s?\ a | similar(?:es)?\ a | semejantes?\ a
  | (?:otr[oa]s?|algun[oa]?|alguien)\ (?:\w+\ ){0,2}como
  | similar\ to | resembl\w* | reminds?\ me\ of
  | (?:someone|somebody|anyone|people|persons?|places?|periods?|times?|eras?|chapters?|another\ \w+
     |who(?:'s|\ is|\ was|\ are|\ were))\ (?:\w+\ ){0,2}like
  | ressembl\w* | similaires?\ a | semblables?\ a | pareils?\ a | comme\ (?:celle|celui|ceux|celles)\ de
)\b""",
    re.X,
)

_ES_WITH = r"(?:aparec\w*|sal[ei]\w*|esta\w*|suel\w*|van?|iban?|anda\w*|coincid\w*|se\ ve\w*)"
_EN_WITH = (
    r"(?:shows?\ up|showed\ up|appears?|appeared|turns?\ up|turned\ up|is|was|are|were|hangs?\ out"
    r"|hung\ out|comes?\ up|came\ up|goes|went|spends?\ time|spent\ time|is\ seen|gets?\ mentioned)"
)
_FR_WITH = r"(?:appar\w*|est|etait|sont|etaient|sort\w*|va|vont|allait|trouv\w*|se\ voi\w*)"
COOCCURRENCE = re.compile(
    rf"""\b(?:
    con\ quien(?:es)? | junto\ a\ quien(?:es)?
  | (?:quien(?:es)?|que\ (?:lugares|sitios|personas)|cuales)\ (?:\w+\ ){{0,2}}{_ES_WITH}\ (?:\w+\ ){{0,2}}
    (?:con|junto\ a)
  | with\ whom
  | (?:who|(?:which|what)\ (?:places|people|persons))\ (?:\w+\ ){{0,2}}{_EN_WITH}\ (?:\w+\ ){{0,2}}
    (?:with|alongside)
  | avec\ qui
  | (?:qui|quels?\ (?:lieux|endroits|personnes|gens))\ (?:\w+\ ){{0,2}}{_FR_WITH}\ (?:\w+\ ){{0,2}}
    (?:avec|aux\ cotes\ de)
)\b""",
    re.X,
)

TIMELINE = re.compile(
    r"""\b(?:
    cuando\ (?:\w+\ ){0,4}(?:desaparec\w* | dejo\ de\ (?:aparecer|salir|estar) | aparec\w* | entro\ en\ mi\ vida
                            | salio\ de\ mi\ vida | se\ fue(?!.*\ (?:a|al|de|del|para|hacia)\ ) | conoci\w*)
  | desde\ cuando
  | when\ (?:\w+\ ){0,4}(?:disappear\w* | vanish\w* | appear\w* | show(?:ed|s)?\ up
                          | stop(?:ped)?\ (?:appearing|showing) | (?:came|come|enter\w*)\ (?:into\ )?my\ life
                          | (?:left|leave)(?=\W*$|\ (?:my\ life|us)\b))
  | quand\ (?:[\w'-]+\ ){0,5}(?:dispar\w* | appar\w* | entre\w*\ dans\ ma\ vie
                               | quitt\w*(?=\W*$|\ (?:ma\ vie|nous)\b))
)\b""",
    re.X,
)
DISAPPEAR = re.compile(r"\b(?:desaparec|dejo de|salio de|se fue|disappear|vanish|stop|left|leave|dispar|quitt)")

IMPORTANCE = re.compile(
    r"""\b(?:
    (?:lo|la|el|los|las)\ mas\ important\w* | mas\ importantes? | (?:que|quien|quienes)\ (?:\w+\ ){0,2}mas\ importa\w*
  | importa(?:n)?\ mas | mas\ presentes?
  | most\ important | matters?\ (?:the\ )?most | mean(?:s|t)?\ the\ most | most\ present
  | plus\ important\w* | compte(?:nt)?\ le\ plus | plus\ presente?s?
)\b""",
    re.X,
)

_KIND_WORDS = {
    "period": re.compile(
        r"\b(?:epocas?|etapas?|periodos?|temporadas?|eras?|periods?|times?|chapters?|capitulos?"
        r"|epoques?|periodes?|chapitres?|moments?)\b"
    ),
    "place": re.compile(
        r"\b(?:lugar(?:es)?|sitios?|ciudad(?:es)?|donde|places?|cities|city|where|lieux?|endroits?"
        r"|villes?)\b"
    ),
    "person": re.compile(
        r"\b(?:quien(?:es)?|personas?|alguien|gente|who|whom|someone|anyone|people|persons?"
        r"|qui|quelqu'?un|personnes?|gens)\b"
    ),
    "thing": re.compile(r"\b(?:cosas?|objetos?|things?|objects?|choses?|objets?)\b"),
}


@dataclass(frozen=True)
class Intent:
    """An entity question: its kind, the kind of entity it asks about (None: any), and for a timeline whether it
    asks when someone disappeared (newest first) rather than appeared."""

    kind: str  # cooccurrence | timeline | importance | similar
    wants: str | None
    disappeared: bool = False
    needs_entity: bool = True


def wanted_kind(folded: str) -> str | None:
    """The kind of entity a question asks for, from its words ("qué lugares" -> place), None when it says none."""
    for kind, pattern in _KIND_WORDS.items():
        if pattern.search(folded):
            return kind
    return None


QUESTION_CHARS = 500
"""An entity question is short; past this many characters the rest is not read (bounds the work of a long query)."""

IMPORTANCE_WORDS = 8
"""Past this many words, "the most important" belongs to the question's own subject ("¿cuál es el factor más
importante a tener en cuenta al evaluar…?"), unless the question names the kind of entity it wants ("¿quién…?")."""


def classify(question: str) -> Intent | None:
    """The entity question `question` asks, or None for any other question."""
    folded = fold(question[:QUESTION_CHARS])
    if SIMILAR.search(folded):
        return Intent("similar", wanted_kind(folded))
    if COOCCURRENCE.search(folded):
        return Intent("cooccurrence", wanted_kind(folded))
    if TIMELINE.search(folded):
        return Intent("timeline", None, disappeared=bool(DISAPPEAR.search(folded)))
    if IMPORTANCE.search(folded):
        wants = wanted_kind(folded)
        if wants is not None or len(words(folded)) <= IMPORTANCE_WORDS:
            return Intent("importance", wants, needs_entity=False)
    return None
