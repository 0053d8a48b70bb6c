"""Words of the search page. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "search": ("Buscar", "Search", "Rechercher"),
    "search_label": ("¿Qué quieres recordar?", "What do you want to remember?", "Que voulez-vous retrouver ?"),
    "search_hint": (
        "Con tus palabras: «¿qué dijo papá del piso?», «el verano de 2008», «¿con quién aparece Pep?»",
        "In your own words: “what did dad say about the flat?”, “the summer of 2008”, “who appears with Pep?”",
        "Avec vos mots : « qu'a dit papa de l'appartement ? », « l'été 2008 », « avec qui apparaît Pep ? »",
    ),
    "results": ("Resultados", "Results", "Résultats"),
    "no_results": (
        "Nada de lo que puedes ver responde a esa pregunta.",
        "Nothing you can see answers that question.",
        "Rien de ce que vous pouvez voir ne répond à cette question.",
    ),
    "understood": ("Entendido", "Understood", "Compris"),
    "set_aside": ("Buscar sin esto", "Search without this", "Chercher sans cela"),
    "restore": ("Volver a tenerlo en cuenta", "Take it into account again", "En tenir compte à nouveau"),
    "answer": ("Respuesta", "Answer", "Réponse"),
    "replies_to": ("En respuesta a", "Answering", "En réponse à"),
    "unmet_note": (
        "Nada de lo que puedes ver cumple lo tachado: estos resultados no lo tienen en cuenta.",
        "Nothing you can see matches what is crossed out: these results leave it aside.",
        "Rien de ce que vous pouvez voir ne correspond à ce qui est barré : ces résultats n'en tiennent pas compte.",
    ),
    "nothing_matched_close": (
        "Nada coincide bien con lo que buscas. Estas son las entradas más cercanas, por si alguna sirve.",
        "Nothing matched well. These are the closest entries, in case one of them helps.",
        "Rien ne correspond bien à votre recherche. Voici les entrées les plus proches, au cas où l'une d'elles "
        "aiderait.",
    ),
    "nothing_matched_latest": (
        "Nada coincide con lo que buscas. Estas son las entradas más recientes.",
        "Nothing matched. These are the latest entries.",
        "Rien ne correspond à votre recherche. Voici les entrées les plus récentes.",
    ),
    "closest": ("Lo más cercano", "The closest", "Le plus proche"),
    "latest": ("Lo más reciente", "The latest", "Le plus récent"),
}
