"""Words of the chapters page and of a witness's pages. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "chapters": ("Capítulos", "Chapters", "Chapitres"),
    "theme": ("Tema", "Theme", "Thème"),
    "theme_hint": (
        "Lo que el capítulo cuenta: «toda la era Madrid», «los veranos en Cádiz».",
        "What the chapter tells: “the whole Madrid era”, “the summers in Cádiz”.",
        "Ce que raconte le chapitre : « toute l'époque de Madrid », « les étés à Cadix ».",
    ),
    "length_words": ("Extensión, en palabras", "Length, in words", "Longueur, en mots"),
    "length_hint": (
        "Aproximada: el capítulo se queda en unas tantas palabras.",
        "Roughly: the chapter keeps to about this many words.",
        "Approximative : le chapitre s'en tient à environ ce nombre de mots.",
    ),
    "draft": ("Borrador", "Draft", "Brouillon"),
    "build": ("Preparar", "Build", "Préparer"),
    "project_summary": ("Resumen del proyecto", "Project summary", "Résumé du projet"),
    "cited": ("Entradas citadas", "Cited entries", "Entrées citées"),
    "words_used": (
        "Unas {n} palabras de las {asked} pedidas.",
        "About {n} words of the {asked} asked.",
        "Environ {n} mots sur les {asked} demandés.",
    ),
    "outline": ("Esquema", "Outline", "Plan"),
    "outline_note": (
        "Sin un modelo de lenguaje, el borrador es un esquema con fechas de lo que encontraste: un punto de partida.",
        "Without a language model, the draft is a dated outline of what was found: somewhere to start writing.",
        "Sans modèle de langue, le brouillon est un plan daté de ce qui a été trouvé : un point de départ.",
    ),
    "outline_fallback": (
        "El modelo de lenguaje no respondió; esto es el esquema con fechas.",
        "The language model did not answer; this is the dated outline.",
        "Le modèle de langue n'a pas répondu ; voici le plan daté.",
    ),
    "nothing_matched": (
        "Nada de lo que puedes ver corresponde a «{theme}»: ni un capítulo ni una entrada. Prueba con otras "
        "palabras, un lugar, un nombre o una época.",
        "Nothing you can see matches “{theme}”: no chapter and no entry. Try other words, a place, a name or a time.",
        "Rien de ce que vous pouvez voir ne correspond à « {theme} » : ni chapitre ni entrée. Essayez d'autres mots, "
        "un lieu, un nom ou une époque.",
    ),
    "nearest_anyway": (
        "Mostrar igualmente lo más cercano por el sentido",
        "Show the nearest in meaning anyway",
        "Montrer quand même le plus proche par le sens",
    ),
    "nearest_note": (
        "Lo más cercano por el sentido, aunque nada lo nombre: puede no tener que ver con el tema.",
        "The nearest in meaning, though nothing names it: it may have little to do with the theme.",
        "Le plus proche par le sens, même si rien ne le nomme : cela peut n'avoir guère de rapport avec le thème.",
    ),
    "season_note": (
        "«{theme}» vuelve cada año: lo que puedes ver de ello, año por año.",
        "“{theme}” comes back every year: what you can see of it, year by year.",
        "« {theme} » revient chaque année : ce que vous pouvez en voir, année par année.",
    ),
    "download_md": ("Descargar en Markdown", "Download as Markdown", "Télécharger en Markdown"),
    "print": ("Imprimir", "Print", "Imprimer"),
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
    "witness_name": ("Nombre del testigo (opcional)", "The witness's name (optional)", "Nom du témoin (facultatif)"),
    "witness_name_hint": (
        "Firmará los recuerdos que añada; el enlace solo lo ves tú.",
        "It signs the accounts they add; only you see the link.",
        "Il signera les témoignages ajoutés ; vous seul·e voyez le lien.",
    ),
    "invite_days": ("Días de validez", "Valid for (days)", "Valable (jours)"),
    "invited_title": ("Enlace de testigo", "Witness link", "Lien de témoin"),
    "invited_chapter": ("Capítulo", "Chapter", "Chapitre"),
    "invited_witness": ("Testigo", "Witness", "Témoin"),
    "invited_unnamed": ("sin nombre", "no name given", "sans nom"),
    "copy": ("Copiar", "Copy", "Copier"),
    "copied": ("Copiado", "Copied", "Copié"),
    "invited_shown_once": (
        "El enlace se muestra una sola vez, al crearlo. Si lo perdiste, crea otro en la página de capítulos.",
        "The link is shown once, when it is made. If it was lost, make another on the chapters page.",
        "Le lien n'est montré qu'une fois, à sa création. S'il est perdu, créez-en un autre sur la page des chapitres.",
    ),
    "witness_thanks": (
        "Gracias: tu recuerdo se ha guardado en este capítulo.",
        "Thank you: your account is saved in this chapter.",
        "Merci : votre témoignage est enregistré dans ce chapitre.",
    ),
    "expires": ("Caduca el", "Expires on", "Expire le"),
    "add_account": ("Añadir tu recuerdo", "Add your account", "Ajouter votre témoignage"),
    "account_note": (
        "Lo verán todos los miembros del proyecto.",
        "Every member of the project will see it.",
        "Tous les membres du projet le verront.",
    ),
}
