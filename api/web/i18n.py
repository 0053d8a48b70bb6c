"""The web app's words in Spanish, English and French, chosen by `?lang=` or the browser's Accept-Language (English
when neither names one of the three). Entries are shown in the language they were written in."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request

LANGUAGES = ("es", "en", "fr")
DEFAULT = "en"

STRINGS: dict[str, tuple[str, str, str]] = {
    # key: (es, en, fr)
    "app": ("Memora", "Memora", "Memora"),
    "skip": ("Saltar al contenido", "Skip to content", "Aller au contenu"),
    "sign_in": ("Entrar", "Sign in", "Se connecter"),
    "sign_out": ("Salir", "Sign out", "Se déconnecter"),
    "signed_in_as": ("Has entrado como", "Signed in as", "Connecté en tant que"),
    "dev_sign_in": ("Entrada local", "Local sign-in", "Connexion locale"),
    "dev_note": (
        "Solo para uso local: este navegador abrió el enlace de entrada de `memora serve` y puede elegir a un miembro "
        "sin contraseña.",
        "For local use only: this browser opened the sign-in link of `memora serve` and may pick a member without a "
        "password.",
        "Pour un usage local uniquement : ce navigateur a ouvert le lien de connexion de `memora serve` et peut "
        "choisir un membre sans mot de passe.",
    ),
    "dev_link_note": (
        "Para elegir a un miembro sin contraseña, abre el enlace de entrada que `memora serve` muestra al arrancar "
        "(o pide otro con `memora signin-link`).",
        "To pick a member without a password, open the sign-in link `memora serve` prints when it starts (or get "
        "another with `memora signin-link`).",
        "Pour choisir un membre sans mot de passe, ouvrez le lien de connexion que `memora serve` affiche au "
        "démarrage (ou demandez-en un autre avec `memora signin-link`).",
    ),
    "bad_link": (
        "Ese enlace de entrada ya se usó, ha caducado o no es de este servicio. Pide otro con `memora signin-link`.",
        "That sign-in link was already used, has expired or is not this service's. Get another with "
        "`memora signin-link`.",
        "Ce lien de connexion a déjà servi, a expiré ou ne vient pas de ce service. Demandez-en un autre avec "
        "`memora signin-link`.",
    ),
    "member": ("Miembro", "Member", "Membre"),
    "token_sign_in": ("Entrar con un token", "Sign in with a token", "Se connecter avec un jeton"),
    "token_note": (
        "Un token de tu proveedor de identidad o de `memora token`. Se comprueba una vez y no se guarda: la sesión "
        "que abre dura hasta que salgas o dejes de usarla.",
        "A token from your identity provider or from `memora token`. It is checked once and not kept: the session "
        "it opens lasts until you sign out or stop using it.",
        "Un jeton de votre fournisseur d'identité ou de `memora token`. Il est vérifié une fois et n'est pas gardé : "
        "la session qu'il ouvre dure jusqu'à ce que vous vous déconnectiez ou cessiez de l'utiliser.",
    ),
    "token": ("Token", "Token", "Jeton"),
    "bad_token": (
        "Ese token no es válido o ha caducado.",
        "That token is not valid or has expired.",
        "Ce jeton n'est pas valide ou a expiré.",
    ),
    "unknown_member": (
        "No hay ningún miembro con ese nombre.",
        "There is no member by that name.",
        "Aucun membre ne porte ce nom.",
    ),
    "projects": ("Proyectos", "Projects", "Projets"),
    "no_projects": (
        "Todavía no eres miembro de ningún proyecto.",
        "You are not a member of any project yet.",
        "Vous n'êtes encore membre d'aucun projet.",
    ),
    "role_owner": ("propietaria", "owner", "propriétaire"),
    "role_coauthor": ("coautora", "coauthor", "coautrice"),
    "role_reader": ("lectora", "reader", "lectrice"),
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
    "to_review": ("Nombres por revisar", "Names to review", "Noms à vérifier"),
    "to_review_note": (
        "Nombres que aparecen en las entradas que ves y que aún no son personas, lugares ni cosas conocidas.",
        "Names in the entries you can see that are not yet known people, places or things.",
        "Des noms dans les entrées que vous voyez qui ne sont pas encore des personnes, lieux ou choses connus.",
    ),
    "confirm": ("Confirmar", "Confirm", "Confirmer"),
    "reject": ("Descartar", "Reject", "Rejeter"),
    "merge_into": ("Unir a", "Merge into", "Fusionner avec"),
    "around_thread": (
        "Antes y después en la conversación",
        "Before and after in the conversation",
        "Avant et après dans la conversation",
    ),
    "around_date": ("Antes y después en el tiempo", "Before and after in time", "Avant et après dans le temps"),
    "set_aside": ("Buscar sin esto", "Search without this", "Chercher sans cela"),
    "restore": ("Volver a tenerlo en cuenta", "Take it into account again", "En tenir compte à nouveau"),
    "answer": ("Respuesta", "Answer", "Réponse"),
    "timeline": ("Cronología", "Timeline", "Chronologie"),
    "entries": ("entradas", "entries", "entrées"),
    "undated": ("sin fecha", "undated", "sans date"),
    "all_years": ("Todos los años", "All years", "Toutes les années"),
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
    "more": ("Más", "More", "Plus"),
    "people": ("Personas", "People", "Personnes"),
    "people_places": ("Personas y lugares", "People and places", "Personnes et lieux"),
    "most_present": ("Quién y qué más aparece", "Who and what appears most", "Qui et quoi apparaît le plus"),
    "kind_person": ("Personas", "People", "Personnes"),
    "kind_place": ("Lugares", "Places", "Lieux"),
    "kind_thing": ("Cosas", "Things", "Choses"),
    "one_person": ("persona", "person", "personne"),
    "one_place": ("lugar", "place", "lieu"),
    "one_thing": ("cosa", "thing", "chose"),
    "aliases": ("También", "Also called", "Aussi appelé"),
    "called": ("En los mensajes", "In messages", "Dans les messages"),
    "appears": ("Aparece", "Appears", "Apparaît"),
    "timeline_of": ("Entradas por año de", "Entries per year of", "Entrées par an de"),
    "appears_with": ("Aparece con", "Appears with", "Apparaît avec"),
    "measure": ("Medida", "Measure", "Mesure"),
    "measure_jaccard": (
        "juntos entre los dos (Jaccard)",
        "together over either (Jaccard)",
        "ensemble sur l'un ou l'autre (Jaccard)",
    ),
    "measure_pmi": ("más de lo esperable (PMI)", "more than chance (PMI)", "plus que le hasard (PMI)"),
    "measure_count": ("veces juntos", "times together", "fois ensemble"),
    "show": ("Mostrar", "Show", "Afficher"),
    "who_what": ("Quién o qué", "Who or what", "Qui ou quoi"),
    "together": ("Juntos", "Together", "Ensemble"),
    "score": ("Medida", "Score", "Score"),
    "nobody_with": (
        "Nadie aparece con este nombre en lo que puedes ver.",
        "Nothing you can see names anyone with it.",
        "Rien de ce que vous voyez ne le nomme avec quelqu'un.",
    ),
    "similar": ("Parecidos", "Similar", "Semblables"),
    "places": ("Lugares", "Places", "Lieux"),
    "author": ("Autora", "Author", "Autrice"),
    "date": ("Fecha", "Date", "Date"),
    "chapter": ("Capítulo", "Chapter", "Chapitre"),
    "tags": ("Etiquetas", "Tags", "Étiquettes"),
    "embedding_pending": (
        "Guardada. Aún se está indexando por significado: mientras tanto se encuentra por sus palabras.",
        "Saved. Still being indexed by meaning: until then it is found by its words.",
        "Enregistrée. Encore en cours d'indexation par le sens : d'ici là, on la trouve par ses mots.",
    ),
    "level_private": ("privada", "private", "privée"),
    "level_intimate": ("íntima", "intimate", "intime"),
    "level_circle": ("círculo", "circle", "cercle"),
    "level_public": ("pública", "public", "publique"),
    "sees_private": ("Solo la ve quien la escribió.", "Only its author sees it.", "Seule son autrice la voit."),
    "sees_intimate": (
        "La ven quien la escribió, la propietaria y las coautoras.",
        "Its author, the owner and the coauthors see it.",
        "Son autrice, la propriétaire et les coautrices la voient.",
    ),
    "sees_circle": (
        "La ven todos los miembros del proyecto.",
        "Every member of the project sees it.",
        "Tous les membres du projet la voient.",
    ),
    "sees_public": (
        "La ve cualquiera con acceso al proyecto.",
        "Anyone with access to the project sees it.",
        "Toute personne ayant accès au projet la voit.",
    ),
    "not_found": (
        "No existe o no puedes verla.",
        "It does not exist, or you cannot see it.",
        "Elle n'existe pas, ou vous ne pouvez pas la voir.",
    ),
    "forbidden": (
        "No eres miembro de este proyecto.",
        "You are not a member of this project.",
        "Vous n'êtes pas membre de ce projet.",
    ),
    "error": ("Algo ha fallado", "Something went wrong", "Une erreur est survenue"),
    "back": ("Volver", "Back", "Retour"),
    "write": ("Escribir", "Write", "Écrire"),
    "entry": ("Entrada", "Entry", "Entrée"),
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
    "edit": ("Editar", "Edit", "Modifier"),
    "delete": ("Borrar", "Delete", "Supprimer"),
    "delete_note": (
        "Borrar esta entrada la quita de todas partes.",
        "Deleting this entry removes it everywhere.",
        "Supprimer cette entrée l'enlève partout.",
    ),
    "save": ("Guardar", "Save", "Enregistrer"),
    "not_saved": (
        "No se ha guardado. Lo que escribiste sigue aquí:",
        "Not saved. What you wrote is still here:",
        "Non enregistré. Ce que vous avez écrit est toujours là :",
    ),
    "title": ("Título", "Title", "Titre"),
    "text": ("Texto", "Text", "Texte"),
    "date_hint": (
        "Una fecha, aunque sea vaga: «2008-07-12», «julio de 2008», «verano de 2008».",
        "A date, vague if need be: “2008-07-12”, “July 2008”, “summer 2008”.",
        "Une date, même vague : « 2008-07-12 », « juillet 2008 », « été 2008 ».",
    ),
    "names_hint": ("Separados por comas.", "Separated by commas.", "Séparés par des virgules."),
    "who_sees": ("¿Quién la verá?", "Who will see it?", "Qui la verra ?"),
    "language": ("Idioma", "Language", "Langue"),
}
MONTHS = {
    "es": "ene feb mar abr may jun jul ago sep oct nov dic".split(),
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(),
    "fr": "janv févr mars avr mai juin juil août sept oct nov déc".split(),
}


def language(request: Request) -> str:
    """`?lang=` when it names one of the three, else the first of them the browser accepts, else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def translator(lang: str) -> Callable[[str], str]:
    index = LANGUAGES.index(lang) if lang in LANGUAGES else LANGUAGES.index(DEFAULT)

    def t(key: str) -> str:
        return STRINGS[key][index]

    return t
