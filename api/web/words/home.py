"""Words of a project's home (the project page before a question). Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "home_new": ("Lo último", "What is new", "Les dernières entrées"),
    "home_new_none": (
        "Todavía no hay entradas que puedas ver.",
        "There are no entries you can see yet.",
        "Il n'y a pas encore d'entrée que vous puissiez voir.",
    ),
    "home_on_this_day": ("Un día como hoy", "On this day", "Ce jour-là"),
    "home_day_note": (
        "Lo que ocurrió un {day} de otros años.",
        "What happened on {day} in past years.",
        "Ce qui s'est passé un {day} les années passées.",
    ),
    "home_week_note": (
        "Nada de lo que puedes ver ocurrió un {day}; esto ocurrió esta semana ({span}) en otros años.",
        "Nothing you can see happened on {day}; this happened this week ({span}) in past years.",
        "Rien de ce que vous pouvez voir n'a eu lieu un {day} ; ceci a eu lieu cette semaine ({span}) les années "
        "passées.",
    ),
    "home_day_none": (
        "Nada de lo que puedes ver ocurrió ni este día ni esta semana ({span}) en otros años.",
        "Nothing you can see happened on this day or this week ({span}) in past years.",
        "Rien de ce que vous pouvez voir n'a eu lieu ce jour-là ni cette semaine ({span}) les années passées.",
    ),
    "home_by": ("de", "by", "de"),
    "home_a_witness": ("un testigo", "a witness", "un témoin"),
    "home_years_ago": ("hace {n} años", "{n} years ago", "il y a {n} ans"),
    "home_a_year_ago": ("hace un año", "a year ago", "il y a un an"),
}
