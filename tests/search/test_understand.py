"""Table-driven tests for queries.understand: each row is a query and the parse we expect from it."""

from __future__ import annotations

import json
import time
from datetime import date
from typing import Any

import pytest

from queries.search.understanding import (
    EntityMatcher,
    KnownEntity,
    TemporalRange,
    Understanding,
    matcher_for,
    to_json,
    understand,
)

NOW = date(2026, 11, 30)  # a Monday

ENTITIES: tuple[KnownEntity, ...] = (
    KnownEntity("josep", "person", "Josep", ("papá", "mi padre", "dad", "my father", "le père", "papa", "mon père")),
    KnownEntity("carmen", "person", "Carmen", ("mamá", "mi madre", "mum", "my mother", "maman", "ma mère")),
    KnownEntity("pep", "person", "Pep", ("mi hermano", "my brother", "mon frère")),
    KnownEntity("marta-g", "person", "Marta García", ("Marta",)),
    KnownEntity("marta-r", "person", "Marta Ruiz", ("Marta",)),
    KnownEntity("julio", "person", "Julio", ()),
    KnownEntity("berlin", "place", "Berlín", ("Berlin",)),
    KnownEntity("lavapies", "place", "Lavapiés", ()),
    KnownEntity("cadiz", "place", "Cádiz", ()),
    KnownEntity("barcelona", "place", "Barcelona", ()),
    KnownEntity("tarifa", "place", "Tarifa", ()),
    KnownEntity("piso", "thing", "El piso de Lavapiés", ("el piso", "the flat", "l'appartement")),
)

PISO = "El piso de Lavapiés"


def case(query: str, **expected: Any) -> Any:
    """One table row. Unstated temporal/persons/places/things/author default to "none found"."""
    return pytest.param(query, expected, id=f"{query[:60]}@{expected.get('now', NOW)}")


def t(start: str, end: str, precision: str) -> tuple[str, str, str]:
    return start, end, precision


CASES = [
    # ---- years, ranges, decades
    case("2008", t=t("2008-01-01", "2008-12-31", "year"), tt="2008", c="2008", layer="structured"),
    case("fotos en el 2008", t=t("2008-01-01", "2008-12-31", "year"), c="fotos", lang="es"),
    case("en 2008 en Cádiz", t=t("2008-01-01", "2008-12-31", "year"), l=["Cádiz"], c="en Cádiz"),
    case("in '08", t=t("2008-01-01", "2008-12-31", "year"), tt="'08", lang="en"),
    case("el año 2012", t=t("2012-01-01", "2012-12-31", "year"), tt="el año 2012"),
    case("del 2007 al 2009", t=t("2007-01-01", "2009-12-31", "range"), tt="del 2007 al 2009", c="del 2007 al 2009"),
    case("between 2007 and 2009", t=t("2007-01-01", "2009-12-31", "range"), tt="between 2007 and 2009", lang="en"),
    case("from 2007 to 2009", t=t("2007-01-01", "2009-12-31", "range"), lang="en"),
    case("entre 2007 et 2009", t=t("2007-01-01", "2009-12-31", "range"), lang="fr"),
    case("de 2007 à 2009", t=t("2007-01-01", "2009-12-31", "range"), lang="fr"),
    case("2007-2009", t=t("2007-01-01", "2009-12-31", "range"), tt="2007-2009"),
    case("entre 2007 y 2009 en Berlín", t=t("2007-01-01", "2009-12-31", "range"), l=["Berlín"], c="en Berlín"),
    case("los 90", t=t("1990-01-01", "1999-12-31", "decade"), tt="los 90"),
    case("los noventa", t=t("1990-01-01", "1999-12-31", "decade")),
    case("the 90s", t=t("1990-01-01", "1999-12-31", "decade"), lang="en"),
    case("the nineties", t=t("1990-01-01", "1999-12-31", "decade"), lang="en"),
    case("les années 90", t=t("1990-01-01", "1999-12-31", "decade"), lang="fr"),
    case("los años 80", t=t("1980-01-01", "1989-12-31", "decade")),
    case("the 1990s", t=t("1990-01-01", "1999-12-31", "decade")),
    case("les années quatre-vingt-dix", t=t("1990-01-01", "1999-12-31", "decade")),
    case("los 20", t=t("2020-01-01", "2029-12-31", "decade")),
    case("a finales de los 90", t=t("1997-01-01", "1999-12-31", "approx"), tt="a finales de los 90"),
    case("in the early 2000s", t=t("2000-01-01", "2003-12-31", "approx")),
    case("au début des années 90", t=t("1990-01-01", "1993-12-31", "approx"), lang="fr"),
    case(
        "lo que pasó en Madrid en los noventa",
        t=t("1990-01-01", "1999-12-31", "decade"),
        c="lo que pasó en Madrid",
        i="recall",
    ),
    # ---- months
    case("julio de 2008", t=t("2008-07-01", "2008-07-31", "month"), tt="julio de 2008"),
    case("in July 2008", t=t("2008-07-01", "2008-07-31", "month"), tt="July 2008", lang="en"),
    case("juillet 2008", t=t("2008-07-01", "2008-07-31", "month"), lang="fr"),
    case("en julio", t=t("2026-07-01", "2026-07-31", "month"), tt="julio"),
    case("last July", t=t("2026-07-01", "2026-07-31", "month"), tt="last July"),
    case("el julio pasado", t=t("2026-07-01", "2026-07-31", "month")),
    case("en julio", now=date(2026, 7, 15), t=t("2026-07-01", "2026-07-31", "month")),
    case("last July", now=date(2026, 7, 15), t=t("2025-07-01", "2025-07-31", "month")),
    case("el pasado julio", now=date(2026, 7, 15), t=t("2025-07-01", "2025-07-31", "month")),
    case("juillet dernier", now=date(2026, 7, 15), t=t("2025-07-01", "2025-07-31", "month")),
    case("last July", now=date(2026, 8, 1), t=t("2026-07-01", "2026-07-31", "month")),
    case("en enero", t=t("2026-01-01", "2026-01-31", "month")),
    case("en diciembre", t=t("2025-12-01", "2025-12-31", "month")),
    case("en diciembre", now=date(2026, 12, 2), t=t("2026-12-01", "2026-12-31", "month")),
    case("en julio del año pasado", t=t("2025-07-01", "2025-07-31", "month")),
    case("in May", t=t("2026-05-01", "2026-05-31", "month")),
    case("may I see the photos", lang="en"),
    case("from March to June 2010", t=t("2010-03-01", "2010-06-30", "range"), tt="from March to June 2010"),
    case("de julio a septiembre de 2008", t=t("2008-07-01", "2008-09-30", "range")),
    case("between May and July 2008", t=t("2008-05-01", "2008-07-31", "range")),
    case("a mediados de julio de 2008", t=t("2008-07-11", "2008-07-20", "approx")),
    # ---- seasons
    case("el verano de 2008", t=t("2008-06-21", "2008-09-22", "season"), tt="el verano de 2008"),
    case("summer 2008", t=t("2008-06-21", "2008-09-22", "season"), lang="en"),
    case("l'été 2008", t=t("2008-06-21", "2008-09-22", "season"), lang="fr"),
    case("el verano pasado", t=t("2026-06-21", "2026-09-22", "season"), tt="el verano pasado"),
    case("last summer", t=t("2026-06-21", "2026-09-22", "season")),
    case("l'été dernier", t=t("2026-06-21", "2026-09-22", "season"), lang="fr"),
    case("este verano", t=t("2026-06-21", "2026-09-22", "season")),
    case("this summer", t=t("2026-06-21", "2026-09-22", "season")),
    case("cet été", t=t("2026-06-21", "2026-09-22", "season")),
    case("last summer", now=date(2026, 2, 15), t=t("2025-06-21", "2025-09-22", "season")),
    case("el invierno pasado", now=date(2026, 2, 15), t=t("2024-12-21", "2025-03-20", "season")),
    case("l'hiver dernier", now=date(2026, 2, 15), t=t("2024-12-21", "2025-03-20", "season")),
    case("este invierno", now=date(2026, 2, 15), t=t("2025-12-21", "2026-03-20", "season")),
    case("este invierno", t=t("2026-12-21", "2027-03-20", "season")),
    case("el invierno de 2008", t=t("2008-12-21", "2009-03-20", "season")),
    case("en primavera", t=t("2026-03-21", "2026-06-20", "season")),
    case("l'automne dernier", t=t("2025-09-23", "2025-12-20", "season")),
    case("in the fall", t=t("2026-09-23", "2026-12-20", "season")),
    case("in the fall of 2019", t=t("2019-09-23", "2019-12-20", "season")),
    case("el verano del 98", t=t("1998-06-21", "1998-09-22", "season")),
    case("the summer of '69", t=t("1969-06-21", "1969-09-22", "season")),
    case("summer of last year", t=t("2025-06-21", "2025-09-22", "season")),
    case("en verano, el año pasado", t=t("2025-06-21", "2025-09-22", "season"), tt="verano, el año pasado"),
    case("el verano pasado", hemi="south", t=t("2025-12-21", "2026-03-20", "season")),
    case("en invierno", hemi="south", t=t("2026-06-21", "2026-09-22", "season")),
    case("last winter", hemi="south", now=date(2026, 8, 1), t=t("2025-06-21", "2025-09-22", "season")),
    case("el verano de 2008", hemi="south", t=t("2008-12-21", "2009-03-20", "season")),
    case("I want to fall asleep", lang="en"),
    case("hot springs in the falls", lang="en"),
    case("hace tres veranos", t=t("2023-06-21", "2023-09-22", "season"), tt="hace tres veranos"),
    case("two summers ago", t=t("2024-06-21", "2024-09-22", "season"), lang="en"),
    case("il y a deux étés", t=t("2024-06-21", "2024-09-22", "season")),
    case("tres veranos en Cádiz", l=["Cádiz"]),
    case("los inviernos de 2008 a 2010", t=t("2008-12-21", "2010-12-31", "range"), tt="los inviernos de 2008 a 2010"),
    case("a été vendu", lang="fr", i="recall"),
    # ---- relative expressions
    case("hoy", t=t("2026-11-30", "2026-11-30", "day"), layer="structured"),
    case("ayer", t=t("2026-11-29", "2026-11-29", "day")),
    case("anteayer", t=t("2026-11-28", "2026-11-28", "day")),
    case("anoche", t=t("2026-11-29", "2026-11-29", "day")),
    case("la semana pasada", t=t("2026-11-23", "2026-11-29", "week")),
    case("esta semana", t=t("2026-11-30", "2026-12-06", "week")),
    case("el mes pasado", t=t("2026-10-01", "2026-10-31", "month")),
    case("este mes", t=t("2026-11-01", "2026-11-30", "month")),
    case("el año pasado", t=t("2025-01-01", "2025-12-31", "year")),
    case("este año", t=t("2026-01-01", "2026-12-31", "year")),
    case("el año antepasado", t=t("2024-01-01", "2024-12-31", "year")),
    case("hace dos años", t=t("2024-01-01", "2024-12-31", "year"), tt="hace dos años"),
    case("hace un año", t=t("2025-01-01", "2025-12-31", "year")),
    case("hace tres meses", t=t("2026-08-01", "2026-08-31", "month")),
    case("hace una semana", t=t("2026-11-23", "2026-11-29", "week")),
    case("hace un par de semanas", t=t("2026-11-16", "2026-11-22", "week")),
    case("hace diez días", t=t("2026-11-20", "2026-11-20", "day")),
    case("hace 3 días", t=t("2026-11-27", "2026-11-27", "day")),
    case("hace unos días", t=t("2026-11-23", "2026-11-29", "approx")),
    case("recientemente", t=t("2026-09-01", "2026-11-30", "approx")),
    case("últimamente", t=t("2026-09-01", "2026-11-30", "approx")),
    case("recently", t=t("2026-09-01", "2026-11-30", "approx"), lang="en"),
    case("lately", t=t("2026-09-01", "2026-11-30", "approx")),
    case("récemment", t=t("2026-09-01", "2026-11-30", "approx"), lang="fr"),
    case("el fin de semana pasado", t=t("2026-11-28", "2026-11-29", "week")),
    case("last weekend", t=t("2026-11-28", "2026-11-29", "week")),
    case("le week-end dernier", t=t("2026-11-28", "2026-11-29", "week"), lang="fr"),
    case("last weekend", now=date(2026, 11, 29), t=t("2026-11-21", "2026-11-22", "week")),
    case("yesterday", t=t("2026-11-29", "2026-11-29", "day"), lang="en"),
    case("the day before yesterday", t=t("2026-11-28", "2026-11-28", "day")),
    case("last week", t=t("2026-11-23", "2026-11-29", "week")),
    case("last month", t=t("2026-10-01", "2026-10-31", "month")),
    case("last year", t=t("2025-01-01", "2025-12-31", "year")),
    case("two years ago", t=t("2024-01-01", "2024-12-31", "year")),
    case("ten days ago", t=t("2026-11-20", "2026-11-20", "day")),
    case("three weeks ago", t=t("2026-11-09", "2026-11-15", "week")),
    case("a few days ago", t=t("2026-11-23", "2026-11-29", "approx")),
    case("a couple of weeks ago", t=t("2026-11-16", "2026-11-22", "week")),
    case("the year before last", t=t("2024-01-01", "2024-12-31", "year")),
    case("la semaine dernière", t=t("2026-11-23", "2026-11-29", "week"), lang="fr"),
    case("le mois dernier", t=t("2026-10-01", "2026-10-31", "month"), lang="fr"),
    case("l'année dernière", t=t("2025-01-01", "2025-12-31", "year"), lang="fr"),
    case("il y a trois ans", t=t("2023-01-01", "2023-12-31", "year"), lang="fr", i="lookup"),
    case("il y a deux mois", t=t("2026-09-01", "2026-09-30", "month"), lang="fr"),
    case("il y a quelques jours", t=t("2026-11-23", "2026-11-29", "approx"), lang="fr"),
    case("hier", t=t("2026-11-29", "2026-11-29", "day"), lang="fr"),
    case("avant-hier", t=t("2026-11-28", "2026-11-28", "day")),
    case("el lunes pasado", t=t("2026-11-23", "2026-11-23", "day")),
    case("last Friday", t=t("2026-11-27", "2026-11-27", "day")),
    case("samedi dernier", t=t("2026-11-28", "2026-11-28", "day")),
    case("en los últimos tres meses", t=t("2026-08-30", "2026-11-30", "range")),
    case("the last two weeks", t=t("2026-11-16", "2026-11-30", "range")),
    case("ayer y hoy", t=t("2026-11-29", "2026-11-30", "range")),
    case("hace dos años en verano", t=t("2024-06-21", "2024-09-22", "season")),
    case("entre el 3 y el 10 de agosto", t=t("2026-08-03", "2026-08-10", "range")),
    case("de principios de 2008 a finales de 2009", t=t("2008-01-01", "2009-12-31", "range")),
    # ---- holidays
    case("en Navidad", t=t("2025-12-24", "2025-12-26", "approx"), tt="Navidad"),
    case("la Navidad de 2015", t=t("2015-12-24", "2015-12-26", "approx"), tt="la Navidad de 2015"),
    case("la Navidad pasada", t=t("2025-12-24", "2025-12-26", "approx")),
    case("last Christmas", t=t("2025-12-24", "2025-12-26", "approx"), lang="en"),
    case("en Navidad", now=date(2026, 12, 25), t=t("2026-12-24", "2026-12-26", "approx")),
    case("la Navidad pasada", now=date(2026, 12, 25), t=t("2025-12-24", "2025-12-26", "approx")),
    case("la Navidad pasada", now=date(2026, 12, 27), t=t("2026-12-24", "2026-12-26", "approx")),
    case("Noël 2019", t=t("2019-12-24", "2019-12-26", "approx"), lang="fr"),
    case("el día de Navidad de 2010", t=t("2010-12-25", "2010-12-25", "day")),
    case("en Nochebuena", t=t("2025-12-24", "2025-12-24", "day")),
    case("Christmas Eve 2010", t=t("2010-12-24", "2010-12-24", "day")),
    case("le réveillon de Noël", t=t("2025-12-24", "2025-12-24", "day")),
    case("Nochevieja", t=t("2025-12-31", "2025-12-31", "day")),
    case("New Year's Eve 2019", t=t("2019-12-31", "2019-12-31", "day")),
    case("la Saint-Sylvestre", t=t("2025-12-31", "2025-12-31", "day"), lang="fr"),
    case("Año Nuevo", t=t("2026-01-01", "2026-01-01", "day")),
    case("New Year's Day 2020", t=t("2020-01-01", "2020-01-01", "day")),
    case("el día de Reyes", t=t("2026-01-06", "2026-01-06", "day")),
    case("la noche de San Juan", t=t("2026-06-23", "2026-06-24", "range")),
    case("San Juan de 2019", t=t("2019-06-23", "2019-06-24", "range")),
    case("Saint John's Eve", t=t("2026-06-23", "2026-06-24", "range")),
    case("Sant Jordi", t=t("2026-04-23", "2026-04-23", "day")),
    case("San Valentín", t=t("2026-02-14", "2026-02-14", "day")),
    case("Valentine's Day 2015", t=t("2015-02-14", "2015-02-14", "day")),
    case("la Saint-Valentin", t=t("2026-02-14", "2026-02-14", "day")),
    case("Halloween", t=t("2026-10-31", "2026-10-31", "day")),
    case("Halloween 2020", t=t("2020-10-31", "2020-10-31", "day")),
    case("el año pasado en Navidad", t=t("2025-12-24", "2025-12-26", "approx")),
    case(
        "Christmas with dad in Berlin 2012",
        t=t("2012-12-24", "2012-12-26", "approx"),
        tt="Christmas … 2012",
        p=["Josep"],
        l=["Berlín"],
        c="in Berlin",
    ),
    case("en Semana Santa", t=t("2026-03-29", "2026-04-06", "range")),
    case("la Semana Santa de 2015", t=t("2015-03-29", "2015-04-06", "range")),
    case("Pâques 2024", t=t("2024-03-29", "2024-04-01", "approx"), lang="fr"),
    case("last Easter", t=t("2026-04-03", "2026-04-06", "approx")),
    case(
        "qué le regaló papá a mamá por Reyes",
        t=t("2026-01-06", "2026-01-06", "day"),
        p=["Josep", "Carmen"],
        c="qué le regaló",
        i="recall",
    ),
    # ---- calendar dates
    case("el 15 de julio de 2008", t=t("2008-07-15", "2008-07-15", "day")),
    case("July 15, 2008", t=t("2008-07-15", "2008-07-15", "day"), lang="en"),
    case("le 14 juillet 2008", t=t("2008-07-14", "2008-07-14", "day"), lang="fr"),
    case("15/07/2008", t=t("2008-07-15", "2008-07-15", "day")),
    case("2008-07-15", t=t("2008-07-15", "2008-07-15", "day")),
    case("el 3 de mayo", t=t("2026-05-03", "2026-05-03", "day")),
    case("el 24 de diciembre", t=t("2025-12-24", "2025-12-24", "day")),
    case("03/04/2008", locale="en-US", t=t("2008-03-04", "2008-03-04", "day")),
    case("03/04/2008", locale="es-ES", t=t("2008-04-03", "2008-04-03", "day")),
    case("del 3 al 10 de agosto de 2015", t=t("2015-08-03", "2015-08-10", "range")),
    case("del 28 al 3 de marzo de 2015", t=t("2015-02-28", "2015-03-03", "range")),
    case("March 3-5, 2015", t=t("2015-03-03", "2015-03-05", "range"), lang="en"),
    case("Oct 10 to 12 2015", t=t("2015-10-10", "2015-10-12", "range"), lang="en"),
    case("3–5 de agosto de 2015", t=t("2015-08-03", "2015-08-05", "range")),
    case("a principios de 2008", t=t("2008-01-01", "2008-04-30", "approx")),
    case("mid-2008", t=t("2008-05-01", "2008-08-31", "approx")),
    case("fin 2008", t=t("2008-09-01", "2008-12-31", "approx")),
    # ---- numbers that are not dates
    case("1500 euros", c="1500 euros"),
    case("mis 2000 fotos", c="mis 2000 fotos"),
    case("los 20 años de Marta", p=["Marta García", "Marta Ruiz"], amb=True, c="los 20 años"),
    case("dix ans", lang="fr"),
    # ---- entities and cleaned_text
    case(
        "qué dijo papá del piso el verano pasado",
        t=t("2026-06-21", "2026-09-22", "season"),
        p=["Josep"],
        th=[PISO],
        c="qué dijo del piso",
        i="recall",
        lang="es",
    ),
    case(
        "¿Qué dijo papá del piso el verano pasado?",
        t=t("2026-06-21", "2026-09-22", "season"),
        p=["Josep"],
        th=[PISO],
        c="¿Qué dijo del piso?",
        i="recall",
    ),
    case("¿cuándo fuimos a Cádiz con mamá?", p=["Carmen"], l=["Cádiz"], c="¿cuándo fuimos a Cádiz?", i="recall"),
    case(
        "fotos de Marta en Lavapies",
        p=["Marta García", "Marta Ruiz"],
        amb=True,
        l=["Lavapiés"],
        c="fotos en Lavapies",
        i="lookup",
    ),
    case("Marta García en Berlín", p=["Marta García"], amb=False, l=["Berlín"], c="en Berlín"),
    case("Marta Ruiz", p=["Marta Ruiz"], amb=False, layer="keyword"),
    case("Marta", p=["Marta García", "Marta Ruiz"], amb=True, c="Marta"),
    case("Barcleona 2010", t=t("2010-01-01", "2010-12-31", "year"), l=["Barcelona"], c="Barcelona"),
    case(
        "fotos de Barcleona con Marta",
        p=["Marta García", "Marta Ruiz"],
        amb=True,
        l=["Barcelona"],
        c="fotos de Barcelona",
    ),
    case("berlin", l=["Berlín"], c="berlin", layer="keyword"),
    case("BERLÍN", l=["Berlín"]),
    case("Berln", l=["Berlín"], c="Berlín"),
    case("Cadiz y Tarifa", l=["Cádiz", "Tarifa"], c="Cadiz y Tarifa"),
    case("tarifas del gas", c="tarifas del gas"),
    case("the flat in Lavapiés", th=[PISO], l=["Lavapiés"], c="the flat in Lavapiés", lang="en"),
    case("el piso", th=[PISO], c="el piso", layer="keyword"),
    case(
        "what did my father say about the flat last summer",
        t=t("2026-06-21", "2026-09-22", "season"),
        p=["Josep"],
        th=[PISO],
        c="what did say about the flat",
        i="recall",
        lang="en",
    ),
    case(
        "qu'a dit le père sur l'appartement l'été dernier",
        t=t("2026-06-21", "2026-09-22", "season"),
        p=["Josep"],
        th=[PISO],
        c="qu'a dit sur l'appartement",
        i="recall",
        lang="fr",
    ),
    case(
        "mon père à Berlin en 2008",
        t=t("2008-01-01", "2008-12-31", "year"),
        p=["Josep"],
        l=["Berlín"],
        c="à Berlin",
        lang="fr",
    ),
    case("dad and mum in Tarifa", p=["Josep", "Carmen"], l=["Tarifa"], c="in Tarifa", lang="en"),
    case(
        "papá y mamá en Cádiz en 2008",
        t=t("2008-01-01", "2008-12-31", "year"),
        p=["Josep", "Carmen"],
        l=["Cádiz"],
        c="en Cádiz",
    ),
    case("mi hermano y yo en Cádiz", p=["Pep"], l=["Cádiz"], c="yo en Cádiz"),
    case("con papá", p=["Josep"], c="con papá"),
    case("Pep's flat", p=["Pep"], th=[PISO], c="flat"),
    case("los precios del piso", th=[PISO], e="none"),
    case("when is mum's birthday", p=["Carmen"], c="when is birthday", i="lookup", lang="en"),
    case("qué dijo Julio en julio", t=t("2026-07-01", "2026-07-31", "month"), p=["Julio"], c="qué dijo"),
    case("fotos de Julio", p=["Julio"], c="fotos"),
    case("#viaje Berlín 2008", t=t("2008-01-01", "2008-12-31", "year"), l=["Berlín"], tags=["viaje"], c="viaje Berlín"),
    case("#Navidad con mamá", p=["Carmen"], tags=["navidad"], c="Navidad"),
    case("#viaje #familia Cádiz", l=["Cádiz"], tags=["viaje", "familia"], c="viaje familia Cádiz"),
    case(
        "hace unos días hablé con Pep sobre el piso",
        t=t("2026-11-23", "2026-11-29", "approx"),
        p=["Pep"],
        th=[PISO],
        c="hablé sobre el piso",
        i="recall",
    ),
    # ---- author
    case("solo lo que escribió Pep", a="Pep", c="solo lo que escribió Pep"),
    case("solo lo que escribió Pep sobre Tarifa", a="Pep", l=["Tarifa"], c="sobre Tarifa"),
    case("only what Pep wrote about Berlin", a="Pep", l=["Berlín"], c="about Berlin", lang="en"),
    case("seulement ce qu'a écrit Pep", a="Pep", lang="fr"),
    case("seulement ce qu'a écrit Pep sur Cádiz", a="Pep", l=["Cádiz"], c="sur Cádiz"),
    case("entries written by my brother in 2015", a="Pep", t=t("2015-01-01", "2015-12-31", "year")),
    case("lo que escribió papá sobre el piso", a="Josep", th=[PISO], c="sobre el piso"),
    case("what dad wrote about the flat", a="Josep", th=[PISO], c="about the flat"),
    case("escrito por mamá en Berlín", a="Carmen", l=["Berlín"], c="en Berlín"),
    case("solo lo que escribió Marta", a="Marta García"),
    case("lo que Pep escribió en 2015", a="Pep", t=t("2015-01-01", "2015-12-31", "year")),
    # ---- intent
    case("muéstrame todas las entradas de Berlín", l=["Berlín"], c="Berlín", i="browse"),
    case("show me everything about Tarifa", l=["Tarifa"], c="Tarifa", i="browse", lang="en"),
    case("montre-moi les photos de Cádiz", l=["Cádiz"], c="les photos de Cádiz", i="browse", lang="fr"),
    case("todas las entradas de papá", p=["Josep"], c="todas las entradas de papá", i="browse"),
    case("everything about the flat", th=[PISO], c="the flat", i="browse"),
    case("toutes les entrées sur Berlin", l=["Berlín"], c="Berlin", i="browse"),
    case(
        "cómo me sentía en Navidad de 2015",
        t=t("2015-12-24", "2015-12-26", "approx"),
        c="cómo me sentía",
        i="subjective",
        e="neutral",
    ),
    case(
        "how did I feel last Christmas",
        t=t("2025-12-24", "2025-12-26", "approx"),
        c="how did I feel",
        i="subjective",
        e="neutral",
    ),
    case(
        "comment je me sentais l'hiver dernier",
        t=t("2025-12-21", "2026-03-20", "season"),
        c="comment je me sentais",
        i="subjective",
        lang="fr",
    ),
    case("what did I think about the flat", th=[PISO], i="subjective"),
    case("qué pensaba de Berlín", l=["Berlín"], i="subjective"),
    case("¿te acuerdas de cuando fuimos a Tarifa?", l=["Tarifa"], c="¿cuando fuimos a Tarifa?", i="recall"),
    case("do you remember the flat in Lavapiés", th=[PISO], l=["Lavapiés"], c="the flat in Lavapiés", i="recall"),
    case("el día que lloramos en Tarifa", l=["Tarifa"], i="recall", e="negative"),
    case(
        "what did we eat in Cádiz in July 2008",
        t=t("2008-07-01", "2008-07-31", "month"),
        l=["Cádiz"],
        c="what did we eat in Cádiz",
        i="recall",
        lang="en",
    ),
    case("when did we go to Berlin?", l=["Berlín"], i="recall"),
    case("quand sommes-nous allés à Cádiz ?", l=["Cádiz"], i="recall", lang="fr"),
    case("qu'est-ce qu'on a fait à Noël ?", t=t("2025-12-24", "2025-12-26", "approx"), i="recall", lang="fr"),
    case("où étions-nous l'été 2008 ?", t=t("2008-06-21", "2008-09-22", "season"), i="recall", lang="fr"),
    case(
        "¿Fuimos a Cádiz en 2008?",
        t=t("2008-01-01", "2008-12-31", "year"),
        l=["Cádiz"],
        c="¿Fuimos a Cádiz?",
        i="recall",
    ),
    case("did we go to Tarifa in 2019?", t=t("2019-01-01", "2019-12-31", "year"), l=["Tarifa"], i="recall"),
    case(
        "show me photos of mum from last summer",
        t=t("2026-06-21", "2026-09-22", "season"),
        p=["Carmen"],
        c="photos",
        i="browse",
    ),
    case("dónde vive Pep", p=["Pep"], c="dónde vive", i="lookup"),
    case("qué es el piso", th=[PISO], i="lookup"),
    case("où habite Pep", p=["Pep"], i="lookup", lang="fr"),
    case("fotos de la playa", c="fotos de la playa", i="lookup", layer="balanced"),
    # ---- emotion
    case("qué feliz estaba mamá en Cádiz", p=["Carmen"], l=["Cádiz"], c="qué feliz estaba en Cádiz", e="positive"),
    case("we were so happy in Berlin", l=["Berlín"], e="positive", i="recall"),
    case("nous étions tristes à Noël", t=t("2025-12-24", "2025-12-26", "approx"), e="negative", i="recall"),
    case("no estaba triste", e="neutral"),
    case("no estaba feliz", e="negative"),
    case("lloramos mucho", e="negative", i="recall"),
    case("a day full of laughter", e="positive"),
    case("le jour où j'ai pleuré", e="negative", i="recall", lang="fr"),
    case("fotos de Tarifa", l=["Tarifa"], e="none"),
    case("happy and sad moments", e="neutral"),
    # ---- language and layer
    case("Berlín", l=["Berlín"], lang="es", layer="keyword"),
    case("Berlin", locale="fr-FR", l=["Berlín"], lang="fr"),
    case("Tarifa", locale="en", l=["Tarifa"], lang="en"),
    case("fotos playa", layer="keyword"),
    case(
        "aquella tarde en la playa de Tarifa con toda la familia cuando el viento no paraba",
        l=["Tarifa"],
        layer="dense",
    ),
    case("photos of the beach at sunset", layer="balanced", lang="en"),
]


def _names(matches: list[Any]) -> list[str]:
    return [m.name for m in matches]


@pytest.mark.parametrize(("query", "exp"), CASES)
def test_understand_table(query: str, exp: dict[str, Any]) -> None:
    u = understand(query, ENTITIES, exp.get("now", NOW), locale=exp.get("locale"), hemisphere=exp.get("hemi", "north"))
    got_t = (
        None if u.temporal is None else (u.temporal.start.isoformat(), u.temporal.end.isoformat(), u.temporal.precision)
    )
    assert got_t == exp.get("t"), f"temporal: {u.temporal}"
    if "tt" in exp:
        assert u.temporal is not None and u.temporal.text == exp["tt"]
    assert _names(u.persons) == exp.get("p", [])
    assert _names(u.places) == exp.get("l", [])
    assert _names(u.things) == exp.get("th", [])
    assert (u.author.name if u.author else None) == exp.get("a")
    if "amb" in exp:
        assert all(m.ambiguous == exp["amb"] for m in u.persons)
    if "tags" in exp:
        assert u.tags == exp["tags"]
    if "c" in exp:
        assert u.cleaned_text == exp["c"]
    for key, attr in (("e", "emotion"), ("i", "intent"), ("lang", "language"), ("layer", "layer")):
        if key in exp:
            assert getattr(u, attr) == exp[key], attr
    if u.temporal is not None:
        assert u.layer == "structured"
        assert u.temporal.start <= u.temporal.end


def test_table_is_large_and_multilingual() -> None:
    assert len(CASES) >= 150
    langs = [c.values[1].get("lang") for c in CASES]
    assert {"es", "en", "fr"} <= set(langs)


def test_to_json_shape() -> None:
    u = understand("qué dijo Marta del piso en Berlín el verano pasado #viaje", ENTITIES, NOW)
    data = to_json(u)
    assert {
        "cleaned_text",
        "temporal",
        "persons",
        "places",
        "things",
        "tags",
        "author",
        "emotion",
        "intent",
        "language",
        "layer",
    } <= set(data)
    assert data["temporal"] == {
        "start": "2026-06-21",
        "end": "2026-09-22",
        "precision": "season",
        "text": "el verano pasado",
    }
    assert data["persons"] == [
        {"id": "marta-g", "name": "Marta García", "ambiguous": True},
        {"id": "marta-r", "name": "Marta Ruiz", "ambiguous": True},
    ]
    assert data["places"] == [{"id": "berlin", "name": "Berlín"}]
    assert data["things"] == [{"id": "piso", "name": PISO}]
    assert data["tags"] == ["viaje"]
    assert data["author"] is None
    assert json.loads(json.dumps(data)) == data


def test_to_json_author_and_no_temporal() -> None:
    data = to_json(understand("only what Pep wrote", ENTITIES, NOW))
    assert data["author"] == {"id": "pep", "name": "Pep"}
    assert data["temporal"] is None
    assert data["persons"] == []


@pytest.mark.parametrize(
    "query",
    [
        "papá",
        "en 2008",
        "solo lo que escribió Pep",
        "del 2007 al 2009",
        "con mamá y papá",
        "the day before yesterday",
        "todas las entradas de papá",
        "de la",
    ],
)
def test_cleaned_text_falls_back_to_original(query: str) -> None:
    u = understand(query, ENTITIES, NOW)
    assert u.cleaned_text == query


@pytest.mark.parametrize(
    "query",
    [
        "",
        " ",
        "\x00",
        "a\x00b papá\x00",
        "x" * 10_000,
        "🎉🎂 papá 🎉",
        "🎉",
        "مرحبا بالعالم 2008",
        "שלום papá",
        "\u202eBerlín\u202c",
        "((((((",
        "2008" * 2500,
        "¿?",
        "e\u0301l papá",
        "Straße 2008",
        "#",
        "##",
        "'''",
        "'08'",
        "hace 999 años",
        "31/02/2008",
        "2008-13-45",
        "el 31 de febrero",
        "the 00s",
        "los 00",
        "\t\n\r",
        "del 2009 al 2007",
        "mid-",
        "ﬁesta en Cádiz",
        "ÀÉÎÕÜ",
        "\ud7ff\ue000",
    ],
)
def test_robust_input(query: str) -> None:
    u = understand(query, ENTITIES, NOW)
    assert isinstance(u, Understanding)
    assert isinstance(u.cleaned_text, str)
    if any(ch.isalnum() for ch in query):
        assert u.cleaned_text.strip()
    json.dumps(to_json(u))


def test_long_input_is_fast_enough() -> None:
    start = time.perf_counter()
    understand("papá en Berlín 2008 " * 600, ENTITIES, NOW)
    assert time.perf_counter() - start < 0.5


def test_prebuilt_and_cached_matcher() -> None:
    matcher = EntityMatcher(ENTITIES)
    u = understand("papá en Berlín", matcher, NOW)
    assert _names(u.persons) == ["Josep"] and _names(u.places) == ["Berlín"]
    assert matcher_for(ENTITIES) is matcher_for(list(ENTITIES))
    assert matcher_for(matcher) is matcher


def test_short_common_words_do_not_fuzzy_match() -> None:
    ents = [
        KnownEntity("ana", "person", "Ana", ()),
        KnownEntity("leo", "person", "Leo", ()),
        KnownEntity("tarifa", "place", "Tarifa", ()),
    ]
    u = understand("una ola en el mar de Tarifaa", ents, NOW)
    assert _names(u.persons) == []
    assert _names(u.places) == ["Tarifa"]


def test_entity_kinds_other_than_person_and_place_are_things() -> None:
    ents = [KnownEntity("boda", "event", "La boda de Ana", ("la boda",))]
    u = understand("fotos de la boda", ents, NOW)
    assert _names(u.things) == ["La boda de Ana"]
    assert u.cleaned_text == "fotos de la boda"


def test_temporal_range_type() -> None:
    u = understand("el verano de 2008", ENTITIES, NOW)
    assert isinstance(u.temporal, TemporalRange)
    assert u.temporal.start == date(2008, 6, 21)


def test_median_latency_with_fifty_entities() -> None:
    ents = list(ENTITIES) + [KnownEntity(f"x{i}", "place", f"Lugar Número {i}", (f"sitio{i}",)) for i in range(38)]
    queries = [q.values[0] for q in CASES] * 2
    for q in queries[:50]:
        understand(q, ents, NOW)
    times = []
    for q in queries:
        start = time.perf_counter()
        understand(q, ents, NOW)
        times.append(time.perf_counter() - start)
    times.sort()
    assert times[len(times) // 2] < 0.002


@pytest.mark.parametrize(
    ("query", "hemi", "year", "occurrence"),
    [
        ("un verano entero en Cádiz con la abuela", "north", 2017, ("2017-06-21", "2017-09-22")),
        ("in August", "north", 2019, ("2019-08-01", "2019-08-31")),
        ("por Navidad", "north", 2010, ("2010-12-24", "2010-12-26")),
        ("en invierno", "south", 2012, ("2012-06-21", "2012-09-22")),
        ("en invierno", "north", 2012, ("2012-12-21", "2013-03-20")),
        ("los veranos en Cádiz", "north", 2017, ("2017-06-21", "2017-09-22")),
        ("summers with grandma", "north", 2019, ("2019-06-21", "2019-09-22")),
        ("les hivers à Lyon", "north", 2012, ("2012-12-21", "2013-03-20")),
        ("la Semana Santa", "north", 2017, ("2017-04-09", "2017-04-17")),
        ("de noviembre a febrero", "north", 2015, ("2015-11-01", "2016-02-29")),
        ("a finales de agosto", "north", 2011, ("2011-08-21", "2011-08-31")),
        ("el 14 de febrero", "north", 2001, ("2001-02-14", "2001-02-14")),
    ],
)
def test_a_date_without_year_or_marker_recurs(query: str, hemi: str, year: int, occurrence: tuple[str, str]) -> None:
    t = understand(query, ENTITIES, NOW, hemisphere=hemi).temporal
    assert t is not None and t.recurring
    assert t.by_year(year, year) == [(date.fromisoformat(occurrence[0]), date.fromisoformat(occurrence[1]))]
    assert t.by_year(year - 1, year + 1)[1] == t.by_year(year, year)[0]
    assert (t.start, t.end) in t.by_year(NOW.year - 1, NOW.year), "start/end: its most recent occurrence"


def test_an_impossible_occurrence_is_a_gap() -> None:
    t = understand("el 29 de febrero", ENTITIES, NOW).temporal
    assert t is not None and t.recurring
    assert t.by_year(2023, 2024) == [None, (date(2024, 2, 29), date(2024, 2, 29))]


@pytest.mark.parametrize(
    "query",
    [
        "summer 2017",
        "el verano pasado",
        "last August",
        "este verano",
        "this summer",
        "en verano, el año pasado",
        "la Navidad de 2015",
        "la Navidad pasada",
        "de julio a septiembre de 2008",
        "hace dos años en verano",
        "2017",
        "los veranos de 2008",
        "summers of 2019",
        "hace dos veranos",
    ],
)
def test_a_date_with_a_year_or_a_marker_does_not_recur(query: str) -> None:
    u = understand(query, ENTITIES, NOW)
    assert u.temporal is not None and not u.temporal.recurring
    assert "recurring" not in (to_json(u)["temporal"] or {})
    assert u.temporal.by_year(u.temporal.start.year - 1, u.temporal.start.year) == [
        None,
        (u.temporal.start, u.temporal.end),
    ]


def test_recurring_in_json_only_when_so() -> None:
    data = to_json(understand("por Navidad", ENTITIES, NOW))
    assert data["temporal"] == {
        "start": "2025-12-24",
        "end": "2025-12-26",
        "precision": "approx",
        "text": "Navidad",
        "recurring": True,
    }


def test_the_hemisphere_is_asked_for_only_when_a_season_is_named() -> None:
    """Searches pass the project's hemisphere as a callable that reads the graph: a query naming no season must not
    pay that round trip, and one naming a season must get the callable's answer."""
    asked: list[str] = []

    def south() -> str:
        asked.append("south")
        return "south"

    for query in ("¿qué me dijo papá del coche el mes pasado?", "in August 2019", "por Navidad"):
        understand(query, ENTITIES, NOW, hemisphere=south)
    assert asked == []
    t = understand("el verano de 2008", ENTITIES, NOW, hemisphere=south).temporal
    assert asked == ["south"]
    assert t is not None and (t.start, t.end) == (date(2008, 12, 21), date(2009, 3, 20))


@pytest.mark.parametrize(
    ("query", "start", "end", "precision"),
    [
        ("Where was Elise on 31 Dec 2023?", "2023-12-31", "2023-12-31", "day"),
        ("What did Elise play 5 Jan 2024?", "2024-01-05", "2024-01-05", "day"),
        ("What happened on Jan 5, 2024?", "2024-01-05", "2024-01-05", "day"),
        ("on 31 Dec. 2023", "2023-12-31", "2023-12-31", "day"),
        ("qué pasó el 31 dic 2023", "2023-12-31", "2023-12-31", "day"),
        ("le 3 janv. 2024", "2024-01-03", "2024-01-03", "day"),
        ("photos from Sept 2019", "2019-09-01", "2019-09-30", "month"),
    ],
)
def test_abbreviated_months_are_read_as_months(query: str, start: str, end: str, precision: str) -> None:
    t = understand(query, ENTITIES, NOW).temporal
    assert t is not None and (t.start.isoformat(), t.end.isoformat(), t.precision) == (start, end, precision)


@pytest.mark.parametrize("query", ["what did Jan say about the flat", "una casa junto al mar", "dec the halls"])
def test_an_abbreviation_alone_is_no_month(query: str) -> None:
    assert understand(query, ENTITIES, NOW).temporal is None


def test_a_day_a_question_names_reaches_two_days_on_the_second_weighing_less_and_nothing_else_widens() -> None:
    from queries.search.query_constraints import SoftConstraints, date_constraints

    day = understand("what did we cook on 29 Dec 2023", ENTITIES, NOW).temporal
    month = understand("what did we cook in December 2023", ENTITIES, NOW).temporal
    reached = date_constraints(day, NOW)
    assert reached == {
        "date_from": date(2023, 12, 29),
        "date_to": date(2023, 12, 31),
        "date_own_to": date(2023, 12, 30),
    }
    assert SoftConstraints(**reached).own_spans == [(date(2023, 12, 29), date(2023, 12, 30))]
    assert SoftConstraints(**reached).spans == [(date(2023, 12, 29), date(2023, 12, 31))]
    assert date_constraints(month, NOW) == {"date_from": date(2023, 12, 1), "date_to": date(2023, 12, 31)}
    assert SoftConstraints(**date_constraints(month, NOW)).own_spans == [(date(2023, 12, 1), date(2023, 12, 31))]
