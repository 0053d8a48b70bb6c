"""How people in a conversation call each other: a message that introduces its author ("I'm Kate", "me llamo Pep",
"je m'appelle Lou") names the author; one that greets, thanks or addresses someone ("Hey Emily!", "gracias, mamá",
"Those look amazing Kate!") names the one other person the message lists (a two-person chat's other participant).

Read from the message alone (its text, author and listed persons), never from other entries, so what a message
says of its participants does not depend on which other messages exist or who may see them. The names are evidence,
not declarations: graph/called.py keeps them with the message, and only those who may see it learn them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from graph.lexicon import ProjectLexicon
from graph.textnorm import fold
from ingest import not_names as nn

Calls = dict[str, dict[str, list[str]]]

_NAME = r"([A-ZÁÉÍÓÚÑÀÈÌÒÙÂÊÎÔÛÄËÏÖÜÇ][\w'’-]*\w|[A-Z]\w)"
_KIN = (
    "mamá mama mami mamita mom mommy mum mummy ma maman papá papa papi dad daddy pa abuela abuelo abuelita abuelito "
    "yaya yayo grandma grandpa granny nana mamie papy papi tía tía tío tia tio auntie aunt uncle hermana hermano "
    "hermanita hermanito sis bro cariño amor mi amor honey babe cielo"
)
KIN = frozenset(fold(w) for w in _KIN.split())
_INTRO = re.compile(
    r"(?:^|[\s,.!?¡¿(])(?:i'?m|i’m|i am|my name is|my name's|call me|me llamo|mi nombre es|soy|"
    r"je m'appelle|je m’appelle|moi c'est|moi c’est)\s+" + _NAME + r"(?=\s*(?:[.,!?;:)]|$|\s+(?:and|y|et|from|de)\b))",
    re.IGNORECASE,
)
_GREETING = (
    r"hey|hi|hello|hiya|heya|dear|morning|good morning|good night|goodnight|night|bye|love you|miss you|"
    r"thanks|thank you|thx|congrats|congratulations|happy birthday|welcome|"
    r"hola|buenas|buenos días|buenos dias|buenas noches|buenas tardes|gracias|muchas gracias|felicidades|"
    r"enhorabuena|feliz cumpleaños|te quiero|adiós|adios|chao|besos|"
    r"bonjour|bonsoir|salut|coucou|merci|bisous|bravo|joyeux anniversaire"
)
_LEAD = re.compile(
    r"^(?:" + _GREETING + r")(?:\s+(?:so much|again|a lot|mucho|muchas|beaucoup))?[\s,!]+(\S+?)\s*(?:[,!.?…]|$)",
    re.IGNORECASE,
)
# A name alone at the end of a sentence, after a comma or "you" ("…, Kate!", "What about you Kate?") or after a
# word of praise or farewell ("amazing Kate!"); a preposition before it makes it someone talked about instead.
_TAIL = re.compile(r"(?:,|\byou|\btú|\btu|\btoi|\bvous)\s+(\S+?)\s*[!?.…]*$", re.IGNORECASE)
_NOT_AFTER = frozenset(
    "with to and from for about like than as by at in on of con y a para de del sobre que como avec et à pour "
    "chez sur visit visited see saw met meet call called tell told ask asked love loved miss missed".split()
)
_SENTENCES = re.compile(r"(?<=[.!?…])\s+|\n+")


@dataclass(frozen=True)
class Called:
    """`name` is what the message calls `person` (one of its listed persons, or its author); `how`, `intro` when
    the author gives it for themselves, `address` when the message speaks to them."""

    name: str
    person: str
    how: str


def _word(raw: str) -> str:
    return raw.strip(".,!?¡¿;:…)(\"'“”’")


def _plausible(name: str, kin: bool) -> bool:
    """A capitalised given name, not a word people capitalise for other reasons (a greeting, a weekday, a
    nationality, a well-known place); a kinship word ("mamá") counts when addressing."""
    key = fold(name)
    if kin and key in KIN:
        return True
    if len(key) < 2 or not name[:1].isupper() or not name[1:].replace("-", "").replace("'", "").isalpha():
        return False
    return key not in _never() and (key,) not in nn.KNOWN_PLACES and (key,) not in nn.HOLIDAYS and not nn.common_en(key)


@cache
def _never() -> frozenset[str]:
    """Words never a given name: the word lists and the three languages' stop words (built once; building the stop
    words loads spaCy's lists)."""
    lists = nn.INTERJECTIONS | nn.WEEKDAYS_MONTHS | nn.GOD | nn.DEMONYMS | nn.SUBJECTS | nn.HONORIFICS
    return lists | nn.stop_words()


def names_called(text: str, author: str | None, persons: list[str]) -> list[Called]:
    """What this message calls its author and the one other person it lists, each name once."""
    found: dict[tuple[str, str], Called] = {}
    if author:
        for m in _INTRO.finditer(text):
            name = _word(m.group(1))
            if _plausible(name, kin=False) and fold(name) != fold(author):
                found.setdefault((fold(name), author), Called(name, author, "intro"))
    others = [p for p in persons if not author or fold(p) != fold(author)]
    if len(others) == 1:
        other = others[0]
        for sentence in (s.strip() for s in _SENTENCES.split(text.strip())):
            for pattern in (_LEAD, _TAIL):
                spoken = pattern.search(sentence)
                if spoken is None:
                    continue
                name = _word(spoken.group(1))
                before = sentence[: spoken.start(1)].split()
                if pattern is _TAIL and before and fold(before[-1]) in _NOT_AFTER:
                    continue
                if _plausible(name, kin=True) and fold(name) != fold(other):
                    found.setdefault((fold(name), other), Called(name, other, "address"))
    return list(found.values())


def called_by_entity(lexicon: ProjectLexicon, text: str, author: str | None, persons: list[str]) -> Calls:
    """`names_called`, by the id of the person each names (as the listed name links), split by how: the
    `introduced` and `addressed` lists of that person's mention (graph/called.py)."""
    out: Calls = {}
    for c in names_called(text, author, persons):
        slot = out.setdefault(lexicon.resolve("person", c.person).id, {"introduced": [], "addressed": []})
        slot["introduced" if c.how == "intro" else "addressed"].append(c.name)
    return out
