"""Deterministic synthetic projects for the scale benchmark: a family's diary, chronicle and
recorded sessions in Spanish and English over five decades, from one seed.

    .venv/bin/python bench/synth.py --entries 10000 --seed 1 --out /tmp/synth [--project synth] [--user-prefix ""]

writes, in `--out`:
- `entries.jsonl`: the entry format of docs/entries.md, one entry a line;
- `members.json`: `[{"user_id", "role"}]` (an owner, two coauthors who also write, a reader);
- `entities.json`: `[{"kind", "name", "aliases"}]` as `memora eval --entities` reads it (kinship names: "papá",
  "my dad", "la abuela"; nicknames: "Pep");
- `queries.jsonl`: `{"query_id", "project_id", "question", "category"}`: content questions (`content`), questions
  with names and dates (`filtered`), and entity questions (`entity`).

Everything comes from one `random.Random(seed)`, and the files are written with fixed key order and `\\n` line ends,
so the same arguments give byte-identical files (tests/bench/test_bench_scale.py checks it). The mix: about 60 %
Spanish, every intimacy level (circle most), exact days, months, seasons (`START/END`), bare years and a few
undated entries,
chapters (`period`) by date, several authors, sessions of 3 to 8 turns sharing an `occurred_at`, and a few
chronicles long enough to be chunked.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# (name, kind of relation, Spanish aliases, English aliases)
CAST: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Josep", ("papá", "mi padre", "Pep"), ("dad", "my father")),
    ("Carmen", ("mamá", "mi madre"), ("mum", "my mother")),
    ("Dolores", ("la abuela", "abuela Lola"), ("grandma", "granny Lola")),
    ("Antonio", ("el abuelo",), ("grandpa",)),
    ("Marta", ("mi hermana",), ("my sister",)),
    ("Jordi", ("mi hermano",), ("my brother",)),
    ("Lucía", ("mi hija",), ("my daughter",)),
    ("Hugo", ("mi hijo",), ("my son",)),
    ("Nerea", (), ()),
    ("Tomás", ("el tío Tomás",), ("uncle Tom",)),
    ("Elena", ("la prima Elena",), ("cousin Elena",)),
    ("Samuel", ("Sam",), ("Sam",)),
    ("Irene", (), ()),
    ("Klaus", (), ()),
)
PLACES = (
    "Cádiz",
    "Barcelona",
    "Berlín",
    "Londres",
    "Bilbao",
    "Sevilla",
    "Lisboa",
    "Madrid",
    "Zarautz",
    "Oaxaca",
    "Boston",
    "Valencia",
    "Granada",
    "Oporto",
)
# chapters: (name, first year, last year, where most of it happens)
CHAPTERS = (
    ("Infancia en Cádiz", 1975, 1988, "Cádiz"),
    ("Barcelona", 1989, 1999, "Barcelona"),
    ("Berlín", 2000, 2006, "Berlín"),
    ("Londres", 2007, 2013, "Londres"),
    ("La vuelta", 2014, 2026, "Valencia"),
)
THINGS_ES = (
    "el coche",
    "la casa del pueblo",
    "el piso",
    "la bicicleta",
    "las cartas",
    "el piano",
    "la paella",
    "el huerto",
    "las fotos",
    "la barca",
    "el perro",
    "la tortilla",
    "el tren",
    "la maleta",
    "el jardín",
)
THINGS_EN = (
    "the car",
    "the village house",
    "the flat",
    "the bike",
    "the letters",
    "the piano",
    "the paella",
    "the garden",
    "the photos",
    "the boat",
    "the dog",
    "the omelette",
    "the train",
    "the suitcase",
    "the orchard",
)
DOING_ES = (
    "comimos en la playa",
    "discutimos por {thing}",
    "arreglamos {thing}",
    "fuimos al mercado",
    "cantamos hasta tarde",
    "lloramos al despedirnos",
    "cocinamos juntos",
    "paseamos por el puerto",
    "vendimos {thing}",
    "encontramos {thing} en el desván",
    "celebramos el cumpleaños",
    "fuimos al hospital",
    "vimos el partido",
    "nos perdimos en el barrio viejo",
    "pintamos la cocina",
)
DOING_EN = (
    "had lunch on the beach",
    "argued about {thing}",
    "fixed {thing}",
    "went to the market",
    "sang until late",
    "cried when we said goodbye",
    "cooked together",
    "walked along the harbour",
    "sold {thing}",
    "found {thing} in the attic",
    "celebrated the birthday",
    "went to the hospital",
    "watched the match",
    "got lost in the old town",
    "painted the kitchen",
)
FEEL_ES = (
    "Estaba muy cansada.",
    "Me sentí feliz.",
    "Hacía un calor insoportable.",
    "Llovió todo el día.",
    "Nadie dijo nada durante la cena.",
    "Me acordé de cuando éramos pequeños.",
    "Fue un día raro.",
    "Todavía me duele pensarlo.",
    "Nos reímos muchísimo.",
    "Olía a mar y a pan recién hecho.",
)
FEEL_EN = (
    "I was exhausted.",
    "I felt happy.",
    "It was unbearably hot.",
    "It rained all day.",
    "Nobody said a word over dinner.",
    "It reminded me of when we were small.",
    "It was a strange day.",
    "It still hurts to think about it.",
    "We laughed a lot.",
    "It smelled of the sea and fresh bread.",
)
SEASONS = (("06-21", "09-22"), ("12-21", "03-20"), ("03-21", "06-20"), ("09-23", "12-20"))
LEVELS = (("circle", 0.45), ("public", 0.15), ("intimate", 0.22), ("private", 0.18))
KINDS = (("diary", 0.72), ("chronicle", 0.16), ("session", 0.12))


@dataclass
class SynthProject:
    """One synthetic project: its entries, members, declared names and questions."""

    project_id: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    members: list[dict[str, str]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    queries: list[dict[str, Any]] = field(default_factory=list)


def _weighted(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    x, acc = rng.random(), 0.0
    for value, share in table:
        acc += share
        if x < acc:
            return value
    return table[-1][0]


def _chapter(year: int) -> tuple[str, int, int, str]:
    return next(c for c in CHAPTERS if c[1] <= year <= c[2])


def _date(rng: random.Random) -> tuple[str | None, int]:
    """(`occurred_on` as vague as it is known, the year it falls in)."""
    year = rng.randint(CHAPTERS[0][1], CHAPTERS[-1][2])
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    x = rng.random()
    if x < 0.5:
        return f"{year}-{month:02d}-{day:02d}", year
    if x < 0.7:
        return f"{year}-{month:02d}", year
    if x < 0.82:
        start, end = rng.choice(SEASONS)
        return f"{year}-{start}/{year + (end < start)}-{end}", year
    if x < 0.96:
        return str(year), year
    return None, year


def _sentence(rng: random.Random, es: bool, person: tuple[str, tuple[str, ...], tuple[str, ...]], place: str) -> str:
    name, aliases_es, aliases_en = person
    who = rng.choice((name, *(aliases_es if es else aliases_en)))
    doing = rng.choice(DOING_ES if es else DOING_EN).format(thing=rng.choice(THINGS_ES if es else THINGS_EN))
    if es:
        opener = rng.choice(
            (
                "Con {who} {doing} en {place}.",
                "En {place}, {who} y yo {doing}.",
                "Aquel día {doing} con {who} cerca de {place}.",
            )
        )
    else:
        opener = rng.choice(
            (
                "With {who} we {doing} in {place}.",
                "In {place}, {who} and I {doing}.",
                "That day we {doing} with {who} near {place}.",
            )
        )
    return opener.format(who=who, doing=doing, place=place) + " " + rng.choice(FEEL_ES if es else FEEL_EN)


def _text(rng: random.Random, es: bool, people: list[Any], place: str, sentences: int, serial: int) -> str:
    parts = [_sentence(rng, es, rng.choice(people), place) for _ in range(sentences)]
    # a serial number in words keeps every entry distinct (no stored vector reused across entries)
    parts.append(f"(nota {serial})" if es else f"(note {serial})")
    return " ".join(parts)


def generate(entries: int, seed: int = 1, project_id: str = "synth", user_prefix: str = "") -> SynthProject:
    """`entries` entries of one project, deterministic in every argument."""
    rng = random.Random(seed)
    users = {
        role: f"{user_prefix}{name}"
        for role, name in (("owner", "ana"), ("coauthor1", "pere"), ("coauthor2", "marta"), ("reader", "leo"))
    }
    project = SynthProject(project_id)
    project.members = [
        {"user_id": users["owner"], "role": "owner"},
        {"user_id": users["coauthor1"], "role": "coauthor"},
        {"user_id": users["coauthor2"], "role": "coauthor"},
        {"user_id": users["reader"], "role": "reader"},
    ]
    project.entities = [{"kind": "person", "name": name, "aliases": [*es, *en]} for name, es, en in CAST]
    project.entities += [
        {"kind": "place", "name": "Berlín", "aliases": ["Berlin"]},
        {"kind": "place", "name": "Londres", "aliases": ["London"]},
    ]
    authors = (users["owner"], users["owner"], users["coauthor1"], users["coauthor2"])
    serial = 0
    while len(project.entries) < entries:
        kind = _weighted(rng, KINDS)
        es = rng.random() < 0.6
        occurred, year = _date(rng)
        chapter = _chapter(year)
        place = chapter[3] if rng.random() < 0.6 else rng.choice(PLACES)
        people = rng.sample(CAST, rng.randint(1, 3))
        intimacy = _weighted(rng, LEVELS)
        author = rng.choice(authors)
        base: dict[str, Any] = {
            "project_id": project_id,
            "author": author,
            "intimacy": intimacy,
            "lang": "es" if es else "en",
        }
        if rng.random() < 0.85 and occurred is not None:
            base["period"] = chapter[0]
        if kind == "session":
            turns = min(rng.randint(3, 8), entries - len(project.entries))
            at = f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(9, 20):02d}:00:00"
            speaker = people[0][0]
            for turn in range(turns):
                serial += 1
                asker = turn % 2 == 0
                line = (
                    ("Entrevistadora" if es else "Interviewer")
                    + ": "
                    + rng.choice(
                        ("¿Qué recuerdas de aquello?", "¿Y luego qué pasó?", "¿Quién estaba?")
                        if es
                        else ("What do you remember of it?", "And then what?", "Who was there?")
                    )
                    if asker
                    else f"{speaker}: " + _text(rng, es, people, place, rng.randint(1, 3), serial)
                )
                project.entries.append(
                    {
                        **base,
                        "entry_id": f"{project_id}/s{serial:07d}",
                        "kind": "session",
                        "text": line,
                        "occurred_at": at,
                        "turn": turn,
                        "persons": [speaker],
                        "places": [place],
                    }
                )
            continue
        serial += 1
        if kind == "chronicle":
            paragraphs = rng.randint(1, 12)  # the long ones are chunked by paragraph
            text = "\n\n".join(_text(rng, es, people, place, rng.randint(3, 6), serial) for _ in range(paragraphs))
            title = (f"Crónica de {place}" if es else f"Chronicle of {place}") + f", {year}"
        else:
            text = _text(rng, es, people, place, rng.randint(1, 4), serial)
            title = None
        entry: dict[str, Any] = {
            **base,
            "entry_id": f"{project_id}/e{serial:07d}",
            "kind": kind,
            "text": text,
            "persons": [p[0] for p in people],
            "places": [place],
        }
        if occurred is not None:
            entry["occurred_on"] = occurred
        if title:
            entry["title"] = title
        if rng.random() < 0.3:
            entry["tags"] = rng.sample(("familia", "viaje", "verano", "mudanza", "trabajo", "salud", "fiesta"), 2)
        project.entries.append(entry)
    project.queries = _queries(rng, project_id)
    return project


def _queries(rng: random.Random, project_id: str, n: int = 60) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        es = i % 2 == 0
        thing = rng.choice(THINGS_ES if es else THINGS_EN)
        doing = rng.choice(DOING_ES if es else DOING_EN).format(thing=thing)
        place, person = rng.choice(PLACES), rng.choice(CAST)
        category = ("content", "filtered", "entity")[i % 3]
        if category == "content":  # no name, no date: what the dense channel alone answers
            question = f"aquella vez que {doing}" if es else f"the time we {doing}"
        elif category == "filtered":
            alias = rng.choice((person[0], *(person[1] if es else person[2])))
            year = rng.randint(1980, 2025)
            question = (
                f"¿cuándo {doing} con {alias} en {place} en {year}?"
                if es
                else f"when we {doing} with {alias} in {place} in {year}"
            )
        else:
            question = rng.choice(
                (
                    f"¿con quién aparece {person[0]}?",
                    f"¿cuándo desapareció {person[0]}?",
                    f"who shows up with {person[0]} most?",
                    f"when did {person[0]} first appear?",
                )
            )
        out.append(
            {"query_id": f"{project_id}/q{i:03d}", "project_id": project_id, "question": question, "category": category}
        )
    return out


def write(project: SynthProject, out: Path) -> list[Path]:
    """The four files (see the module's docstring); same project, same bytes."""
    out.mkdir(parents=True, exist_ok=True)
    files = {"entries.jsonl": project.entries, "queries.jsonl": project.queries}
    written = []
    for name, rows in files.items():
        path = out / name
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8", newline="\n")
        written.append(path)
    for name, data in (("members.json", project.members), ("entities.json", project.entities)):
        path = out / name
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--project", default="synth")
    parser.add_argument("--user-prefix", default="")
    args = parser.parse_args()
    project = generate(args.entries, args.seed, args.project, args.user_prefix)
    for path in write(project, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
