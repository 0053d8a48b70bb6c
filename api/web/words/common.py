"""Words every page shares: the frame, signing in, roles, intimacy levels and refusals. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
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
    "more": ("Más", "More", "Plus"),
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
    "language": ("Idioma", "Language", "Langue"),
}
