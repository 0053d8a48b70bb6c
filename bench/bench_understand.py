"""Latency of queries.understand on ~2,000 realistic es/en/fr queries against 50 entities.

Run from the repository root: ``python bench/bench_understand.py``. Prints p50/p95/max in milliseconds as JSON.
The budget is p95 well under 2 ms per query.
"""

from __future__ import annotations

import itertools
import json
import random
import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from queries.search.understanding import KnownEntity, understand

NOW = date(2026, 11, 30)
QUERIES = 2000

PERSONS = [
    ("Josep", ("papá", "mi padre", "dad", "my father", "le père", "papa")),
    ("Carmen", ("mamá", "mi madre", "mum", "my mother", "maman")),
    ("Pep", ("mi hermano", "my brother", "mon frère")),
    ("Ana", ("mi hermana", "my sister", "ma sœur")),
    ("Marta García", ("Marta",)),
    ("Marta Ruiz", ("Marta",)),
    ("Claire", ()),
    ("Jordi", ()),
    ("Lucía", ("Lu",)),
    ("Abuela Rosa", ("la abuela", "grandma", "mamie")),
    ("Abuelo Paco", ("el abuelo", "grandpa", "papi")),
    ("Tía Elena", ("la tía Elena",)),
    ("Íñigo", ()),
    ("Sophie", ()),
    ("Thomas", ()),
    ("Nuria", ()),
    ("Xavier", ("Xavi",)),
    ("Beatriz", ("Bea",)),
    ("Hugo", ()),
    ("Valentina", ()),
]
PLACES = [
    ("Berlín", ("Berlin",)),
    ("Lavapiés", ()),
    ("Cádiz", ()),
    ("Barcelona", ("BCN",)),
    ("Tarifa", ()),
    ("Madrid", ()),
    ("Sevilla", ("Seville",)),
    ("La Caleta", ("playa de La Caleta",)),
    ("París", ("Paris",)),
    ("Lyon", ()),
    ("Londres", ("London",)),
    ("Granada", ()),
    ("Valencia", ()),
    ("Menorca", ()),
    ("Pirineos", ("los Pirineos", "the Pyrenees")),
    ("Lisboa", ("Lisbon", "Lisbonne")),
    ("Roma", ("Rome",)),
    ("Oporto", ("Porto",)),
    ("Bilbao", ()),
    ("Zaragoza", ()),
]
THINGS = [
    ("El piso de Lavapiés", ("el piso", "the flat", "l'appartement")),
    ("La furgoneta", ("la furgo", "the van")),
    ("El velero", ("the boat", "le bateau")),
    ("La casa del pueblo", ("la casa del pueblo", "the village house")),
    ("El piano", ("the piano", "le piano")),
    ("La bici roja", ("la bici", "the red bike")),
    ("El huerto", ("the garden",)),
    ("Tobi", ("el perro", "the dog", "le chien")),
    ("El Seat 600", ("el seiscientos",)),
    ("La cámara Leica", ("la Leica", "the Leica")),
]

TEMPLATES = [
    "qué dijo {p} del piso el verano pasado",
    "¿cuándo fuimos a {l} con {p}?",
    "fotos de {p} en {l} en 2008",
    "{p} y yo en {l} la Navidad de 2015",
    "solo lo que escribió {p} sobre {l}",
    "cómo me sentía cuando {p} se fue a {l}",
    "muéstrame todas las entradas de {l}",
    "el día que lloramos en {l} con {p}",
    "del 2007 al 2009 en {l}",
    "hace dos años en {l} con {p}, qué feliz estaba",
    "lo que pasó en {l} en los noventa",
    "¿te acuerdas de cuando {p} perdió {t} en {l}?",
    "recuerdos de {t} en julio de 2008",
    "#viaje #familia {l} el mes pasado",
    "qué le regaló {p} a mamá por Reyes",
    "what did {p} say about {t} last summer",
    "when did we go to {l} with {p}?",
    "only what {p} wrote about {l}",
    "show me everything about {l} from the 90s",
    "how did I feel last Christmas in {l}",
    "photos of {p} in {l} two years ago",
    "between 2007 and 2009 {p} lived in {l}",
    "the day {p} cried at {l} in early 2010",
    "qu'a dit {p} sur {t} l'été dernier",
    "seulement ce qu'a écrit {p} sur {l}",
    "quand sommes-nous allés à {l} avec {p}?",
    "les photos de {l} dans les années 90",
    "il y a trois ans à {l} avec {p}",
    "comment je me sentais à Noël 2019 avec {p}",
    "{l}",
    "{p}",
    "{p} {l}",
    "{l} 2012",
    "la semana pasada en {l} con {p} y {t}",
    "hace unos días hablé con {p} de {t}",
    "last weekend in {l}",
    "le week-end dernier à {l} avec {p}",
    "{p} en {l} recientemente",
    "el invierno de 2012 en {l} con {p} y la abuela, cuando todavía teníamos {t} y salíamos cada domingo",
    "fotos de Barcleona con {p}",
]


def entities() -> list[KnownEntity]:
    out = [KnownEntity(f"p{i}", "person", n, a) for i, (n, a) in enumerate(PERSONS)]
    out += [KnownEntity(f"l{i}", "place", n, a) for i, (n, a) in enumerate(PLACES)]
    out += [KnownEntity(f"t{i}", "thing", n, a) for i, (n, a) in enumerate(THINGS)]
    return out


def queries(n: int, rng: random.Random) -> list[str]:
    names_p = [a[0] if a and rng.random() < 0.5 else n for n, a in PERSONS]
    names_l = [n for n, _ in PLACES]
    names_t = [a[0] if a else n for n, a in THINGS]
    combos = itertools.cycle(TEMPLATES)
    return [next(combos).format(p=rng.choice(names_p), l=rng.choice(names_l), t=rng.choice(names_t)) for _ in range(n)]


def main() -> None:
    rng = random.Random(7)
    ents = entities()
    qs = queries(QUERIES, rng)
    for q in qs[:200]:
        understand(q, ents, NOW)
    times: list[float] = []
    for q in qs:
        t0 = time.perf_counter_ns()
        understand(q, ents, NOW)
        times.append((time.perf_counter_ns() - t0) / 1e6)
    times.sort()
    print(
        json.dumps(
            {
                "queries": len(qs),
                "entities": len(ents),
                "p50_ms": round(statistics.median(times), 4),
                "p95_ms": round(times[int(0.95 * (len(times) - 1))], 4),
                "max_ms": round(times[-1], 4),
                "mean_ms": round(statistics.fmean(times), 4),
            }
        )
    )


if __name__ == "__main__":
    main()
