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
    "form_bad_date": (
        "No entiendo la fecha: escríbela como 2009-07-12, 2009-07 o 2009, un periodo como 2009-06-01/2009-08-31, "
        "o con palabras («verano de 2009»).",
        "I cannot read the date: write it as 2009-07-12, 2009-07 or 2009, a span as 2009-06-01/2009-08-31, or in "
        "words (“summer 2009”).",
        "Je ne comprends pas la date : écrivez-la 2009-07-12, 2009-07 ou 2009, une période 2009-06-01/2009-08-31, "
        "ou en mots (« été 2009 »).",
    ),
    "form_date_backwards": (
        "El periodo de la fecha termina antes de empezar.",
        "The date's span ends before it starts.",
        "La période de la date finit avant de commencer.",
    ),
    "form_empty_text": (
        "El texto está vacío: escribe algo antes de guardar.",
        "The text is empty: write something before saving.",
        "Le texte est vide : écrivez quelque chose avant d'enregistrer.",
    ),
    "form_text_too_long": (
        "El texto es demasiado largo: como mucho {n} caracteres.",
        "The text is too long: {n} characters at most.",
        "Le texte est trop long : {n} caractères au plus.",
    ),
    "form_title_too_long": (
        "El título es demasiado largo: como mucho {n} caracteres.",
        "The title is too long: {n} characters at most.",
        "Le titre est trop long : {n} caractères au plus.",
    ),
    "form_too_many_names": (
        "Demasiados nombres en «{field}»: como mucho {n}.",
        "Too many names in “{field}”: {n} at most.",
        "Trop de noms dans « {field} » : {n} au plus.",
    ),
    "form_bad_name": (
        "Cada nombre de «{field}» debe tener entre 1 y 200 caracteres.",
        "Each name in “{field}” must have 1 to 200 characters.",
        "Chaque nom de « {field} » doit avoir de 1 à 200 caractères.",
    ),
    "form_unknown_level": (
        "Elige quién la verá: privada, íntima, círculo o pública.",
        "Choose who will see it: private, intimate, circle or public.",
        "Choisissez qui la verra : privée, intime, cercle ou publique.",
    ),
    "form_bad_character": (
        "El texto lleva un carácter que no se puede guardar.",
        "The text holds a character that cannot be saved.",
        "Le texte contient un caractère qui ne peut pas être enregistré.",
    ),
    "form_bad_field": (
        "Revisa «{field}»: así no se puede guardar.",
        "Check “{field}”: it cannot be saved as it is.",
        "Vérifiez « {field} » : il ne peut pas être enregistré ainsi.",
    ),
    "form_not_saved": (
        "Esta entrada no se puede guardar tal como está: revisa lo que escribiste.",
        "This entry cannot be saved as it is: check what you wrote.",
        "Cette entrée ne peut pas être enregistrée telle quelle : vérifiez ce que vous avez écrit.",
    ),
    "heading_401": ("Enlace no válido", "Link not valid", "Lien non valide"),
    "heading_403": ("No puedes hacer esto", "You cannot do this", "Vous ne pouvez pas faire cela"),
    "heading_404": ("No está aquí", "Not here", "Introuvable"),
    "heading_409": ("Ya ha cambiado", "It has changed", "Cela a changé"),
    "heading_413": ("Demasiado grande", "Too large", "Trop volumineux"),
    "heading_422": ("No se entiende", "Not understood", "Incompris"),
    "heading_429": ("Demasiado seguido", "Too many at once", "Trop à la fois"),
    "heading_503": ("No disponible ahora", "Not available now", "Indisponible pour l'instant"),
    "no_such_page": (
        "Esta página no existe: quizá el enlace estaba mal copiado.",
        "There is no such page: perhaps the link was copied wrong.",
        "Cette page n'existe pas : le lien a peut-être été mal copié.",
    ),
    "witness_link_bad": (
        "Este enlace ya no es válido: pide uno nuevo a quien te lo envió.",
        "This link is no longer valid: ask whoever sent it to you for a new one.",
        "Ce lien n'est plus valide : demandez-en un nouveau à la personne qui vous l'a envoyé.",
    ),
    "sign_in_again": (
        "Tienes que volver a entrar.",
        "You need to sign in again.",
        "Vous devez vous reconnecter.",
    ),
    "form_expired": (
        "Este formulario caducó o no salió de este sitio: recarga la página y vuelve a intentarlo.",
        "This form expired or did not come from this site: reload the page and try again.",
        "Ce formulaire a expiré ou ne vient pas de ce site : rechargez la page et réessayez.",
    ),
    "bad_address": (
        "Algo en esta dirección no es válido: vuelve atrás y prueba de otra forma.",
        "Something in this address is not valid: go back and try another way.",
        "Quelque chose dans cette adresse n'est pas valide : revenez en arrière et essayez autrement.",
    ),
    "conflict": (
        "Eso choca con lo que ya está guardado: vuelve atrás y mira cómo está ahora.",
        "That clashes with what is already saved: go back and see how it is now.",
        "Cela contredit ce qui est déjà enregistré : revenez en arrière et voyez où cela en est.",
    ),
    "too_large": (
        "Lo que enviaste es demasiado grande para guardarlo.",
        "What you sent is too large to save.",
        "Ce que vous avez envoyé est trop volumineux pour être enregistré.",
    ),
    "too_many_search": (
        "Demasiadas búsquedas seguidas: espera {n} segundos y vuelve a intentarlo.",
        "Too many searches in a row: wait {n} seconds and try again.",
        "Trop de recherches d'affilée : attendez {n} secondes et réessayez.",
    ),
    "too_many_write": (
        "Demasiados cambios seguidos: espera {n} segundos y vuelve a intentarlo; lo escrito no se ha guardado.",
        "Too many changes in a row: wait {n} seconds and try again; what you wrote was not saved.",
        "Trop de modifications d'affilée : attendez {n} secondes et réessayez ; votre texte n'a pas été enregistré.",
    ),
    "too_many_read": (
        "Demasiadas páginas de este tipo seguidas (cronología, personas, capítulos): espera {n} segundos.",
        "Too many pages of this kind in a row (timeline, people, chapters): wait {n} seconds.",
        "Trop de pages de ce genre d'affilée (chronologie, personnes, chapitres) : attendez {n} secondes.",
    ),
    "too_many": (
        "Demasiadas peticiones seguidas: espera {n} segundos y vuelve a intentarlo.",
        "Too many requests in a row: wait {n} seconds and try again.",
        "Trop de demandes d'affilée : attendez {n} secondes et réessayez.",
    ),
    "unavailable": (
        "La base de datos no responde ahora mismo y no se ha guardado nada: prueba otra vez en unos segundos.",
        "The database is not answering right now and nothing was saved: try again in a few seconds.",
        "La base de données ne répond pas pour l'instant et rien n'a été enregistré : réessayez dans quelques "
        "secondes.",
    ),
    "maybe_saved": (
        "Se perdió la conexión con la base de datos al guardar: puede que se haya guardado o no. Míralo antes de "
        "repetirlo.",
        "The connection to the database was lost while saving: it may or may not be saved. Look before doing it again.",
        "La connexion à la base de données a été perdue pendant l'enregistrement : cela peut avoir été enregistré "
        "ou non. Vérifiez avant de recommencer.",
    ),
    "went_wrong": (
        "Algo ha fallado al preparar esta página: vuelve atrás y prueba otra vez.",
        "Something went wrong preparing this page: go back and try again.",
        "Une erreur est survenue en préparant cette page : revenez en arrière et réessayez.",
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
    "forbidden_reader": (
        "Las lectoras de este proyecto pueden leerlo, pero no escribir en él.",
        "Readers of this project may read it but not write in it.",
        "Les lectrices de ce projet peuvent le lire, mais pas y écrire.",
    ),
    "forbidden_not_author": (
        "Solo quien la escribió o la propietaria del proyecto pueden cambiarla o borrarla.",
        "Only its author or the project's owner may change or delete it.",
        "Seule son autrice ou la propriétaire du projet peut la modifier ou la supprimer.",
    ),
    "forbidden_not_owner": (
        "Solo la propietaria del proyecto puede hacerlo.",
        "Only the project's owner may do this.",
        "Seule la propriétaire du projet peut le faire.",
    ),
    "member_other": (
        "U otro miembro, por su nombre",
        "Or another member, by name",
        "Ou un autre membre, par son nom",
    ),
}
