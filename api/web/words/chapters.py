"""Words of the chapters page and of a witness's pages. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "chapters": ("Capítulos", "Chapters", "Chapitres"),
    "theme": ("Tema", "Theme", "Thème"),
    "theme_hint": (
        "Lo que el capítulo cuenta: «toda la era Madrid», «los veranos en Cádiz».",
        "What the chapter tells: “the whole Madrid era”, “the summers in Cádiz”.",
        "Ce que raconte le chapitre : « toute l'époque de Madrid », « les étés à Cadix ».",
    ),
    "budget": ("Tokens como máximo", "At most this many tokens", "Au plus ce nombre de jetons"),
    "draft": ("Borrador", "Draft", "Brouillon"),
    "build": ("Preparar", "Build", "Préparer"),
    "project_summary": ("Resumen del proyecto", "Project summary", "Résumé du projet"),
    "cited": ("Entradas citadas", "Cited entries", "Entrées citées"),
    "tokens": ("tokens", "tokens", "jetons"),
    "witness_note": (
        "Te han invitado a este capítulo: ves sus entradas compartidas con el círculo y puedes añadir tu recuerdo.",
        "You were invited to this chapter: you see the entries it shares with the circle, and may add your account.",
        "Vous êtes invité·e à ce chapitre : vous voyez les entrées partagées avec le cercle et pouvez ajouter votre "
        "témoignage.",
    ),
    "declared": ("Capítulos del proyecto", "The project's chapters", "Les chapitres du projet"),
    "invite": ("Invitar a un testigo", "Invite a witness", "Inviter un témoin"),
    "invited_note": (
        "Quien tenga este enlace podrá leer las entradas del capítulo compartidas con el círculo y añadir su recuerdo. "
        "Envíalo solo a esa persona.",
        "Whoever holds this link may read the chapter's entries shared with the circle and add their account. Send "
        "it to that person only.",
        "Quiconque a ce lien peut lire les entrées du chapitre partagées avec le cercle et ajouter son témoignage. "
        "Envoyez-le à cette personne seulement.",
    ),
    "link": ("Enlace", "Link", "Lien"),
    "expires": ("Caduca el", "Expires on", "Expire le"),
    "add_account": ("Añadir tu recuerdo", "Add your account", "Ajouter votre témoignage"),
    "account_note": (
        "Lo verán todos los miembros del proyecto.",
        "Every member of the project will see it.",
        "Tous les membres du projet le verront.",
    ),
}
