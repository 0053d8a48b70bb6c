"""Words of the people, entity and timeline pages, and of name review. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "to_review": ("Nombres por revisar", "Names to review", "Noms à vérifier"),
    "to_review_note": (
        "Nombres que aparecen en las entradas que ves y que aún no son personas, lugares ni cosas conocidas.",
        "Names in the entries you can see that are not yet known people, places or things.",
        "Des noms dans les entrées que vous voyez qui ne sont pas encore des personnes, lieux ou choses connus.",
    ),
    "confirm": ("Confirmar", "Confirm", "Confirmer"),
    "reject": ("Descartar", "Reject", "Rejeter"),
    "merge_into": ("Unir a", "Merge into", "Fusionner avec"),
    "timeline": ("Cronología", "Timeline", "Chronologie"),
    "entries": ("entradas", "entries", "entrées"),
    "undated": ("sin fecha", "undated", "sans date"),
    "all_years": ("Todos los años", "All years", "Toutes les années"),
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
    "appears_with": ("Aparece con", "Appears with", "Apparaît avec"),
    "show": ("Mostrar", "Show", "Afficher"),
    "together": ("Juntos", "Together", "Ensemble"),
    "nobody_with": (
        "Nadie más aparece con {name} en las entradas que puedes ver.",
        "No one else appears with {name} in the entries you can see.",
        "Personne d'autre n'apparaît avec {name} dans les entrées que vous voyez.",
    ),
    "picture_title": ("Entradas por año de {name}", "Entries per year of {name}", "Entrées par an de {name}"),
    "picture_one": ("{n} entrada", "{n} entry", "{n} entrée"),
    "picture_many": ("{n} entradas", "{n} entries", "{n} entrées"),
    "picture_empty": ("ninguna entrada con fecha", "no dated entries", "aucune entrée datée"),
    "with_title": ("Quién aparece con {name}", "Who appears with {name}", "Qui apparaît avec {name}"),
    "together_one": (
        "aparecen juntos en {n} entrada",
        "appear together in {n} entry",
        "apparaissent ensemble dans {n} entrée",
    ),
    "together_many": (
        "aparecen juntos en {n} entradas",
        "appear together in {n} entries",
        "apparaissent ensemble dans {n} entrées",
    ),
    "naming_title": ("Entradas donde aparece {name}", "Entries {name} appears in", "Entrées où apparaît {name}"),
    "naming_none": (
        "Ninguna entrada que puedes ver nombra a {name}.",
        "No entry you can see names {name}.",
        "Aucune entrée que vous voyez ne nomme {name}.",
    ),
    "naming_older": ("Entradas anteriores", "Older entries", "Entrées plus anciennes"),
    "naming_newest": ("Las más recientes", "The newest", "Les plus récentes"),
    "nobody_yet": (
        "Aún no aparece nadie en las entradas que puedes ver.",
        "No one appears yet in the entries you can see.",
        "Personne n'apparaît encore dans les entrées que vous voyez.",
    ),
    "no_entries_in": ("No hay entradas en {when}.", "No entries in {when}.", "Aucune entrée en {when}."),
    "no_entries_yet": (
        "Aún no hay entradas que puedas ver.",
        "There are no entries you can see yet.",
        "Il n'y a pas encore d'entrées que vous puissiez voir.",
    ),
    "month_year": ("{month} de {year}", "{month} {year}", "{month} {year}"),
    "month_names": (
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
        "January February March April May June July August September October November December",
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    ),
    "without_month": (
        "Sin mes: {n} (fechadas por el año entero o por un periodo más largo).",
        "Without a month: {n} (dated by the whole year or a longer span).",
        "Sans mois : {n} (datées par l'année entière ou une période plus longue).",
    ),
    "similar": ("Parecidos", "Similar", "Semblables"),
    "places": ("Lugares", "Places", "Lieux"),
    "called_reject": ("No es su nombre", "Not their name", "Pas son nom"),
    "a_person": ("una persona", "a person", "une personne"),
    "a_place": ("un lugar", "a place", "un lieu"),
    "a_thing": ("una cosa", "a thing", "une chose"),
    "found_as": ("parece {kind}", "looks like {kind}", "semble être {kind}"),
    "review_kind": ("Qué es {name}", "What {name} is", "Ce qu'est {name}"),
    "same_as": ("Es la misma persona, lugar o cosa que…", "Same as…", "Même que…"),
    "merge": ("Unir", "Merge", "Fusionner"),
    "review_bad_kind": (
        "Elige si «{name}» es una persona, un lugar o una cosa.",
        "Choose whether “{name}” is a person, a place or a thing.",
        "Choisissez si « {name} » est une personne, un lieu ou une chose.",
    ),
    "review_merge_empty": (
        "Escribe con quién o con qué es lo mismo «{name}»: una persona, un lugar o una cosa que ya conozcas.",
        "Write who or what “{name}” is the same as: a person, place or thing you already know.",
        "Écrivez avec qui ou quoi « {name} » ne fait qu'un : une personne, un lieu ou une chose que vous connaissez "
        "déjà.",
    ),
    "review_merge_unknown": (
        "No conoces a ninguna persona, lugar ni cosa llamada «{into}»: elige un nombre de la lista o confirma «{name}» "
        "como nuevo. Nada ha cambiado.",
        "You know no person, place or thing called “{into}”: choose a name from the list, or confirm “{name}” as a "
        "new one. Nothing was changed.",
        "Vous ne connaissez aucune personne, aucun lieu ni aucune chose appelée « {into} » : choisissez un nom de la "
        "liste, ou confirmez « {name} » comme nouveau. Rien n'a changé.",
    ),
    "review_merge_other_kind": (
        "«{into}» es {its_kind} y «{name}» iba a ser {kind}: solo se une lo que es del mismo tipo. Si «{name}» es "
        "{its_kind}, elígelo en «Qué es {name}» y vuelve a unirlo. Nada ha cambiado.",
        "“{into}” is {its_kind} and “{name}” was to be {kind}: only the same kind can be merged. If “{name}” is "
        "{its_kind}, choose so under “What {name} is” and merge again. Nothing was changed.",
        "« {into} » est {its_kind} et « {name} » allait être {kind} : seul ce qui est du même type se fusionne. Si "
        "« {name} » est {its_kind}, choisissez-le sous « Ce qu'est {name} » et fusionnez à nouveau. Rien n'a changé.",
    ),
    "review_gone": (
        "«{name}» no está entre los nombres por revisar de las entradas que puedes ver: quizá ya se decidió.",
        "“{name}” is not among the names to review in the entries you can see: it may have been decided already.",
        "« {name} » n'est pas parmi les noms à vérifier des entrées que vous voyez : il a peut-être déjà été décidé.",
    ),
    "review_not_merged": (
        "«{name}» se confirmó, pero no se pudo unir a «{into}».",
        "“{name}” was confirmed, but could not be merged into “{into}”.",
        "« {name} » a été confirmé, mais n'a pas pu être fusionné avec « {into} ».",
    ),
    "who_is_who": ("Quién es quién", "Who is who", "Qui est qui"),
    "who_is_who_note": (
        "Di qué persona de las entradas es cada miembro: sus entradas la cuentan entre sus personas y su nombre se "
        "muestra como el de esa persona. Todos los miembros lo ven.",
        "Say which person of the entries each member is: their entries count that person among theirs and their name "
        "shows as that person's. Every member sees it.",
        "Dites quelle personne des entrées est chaque membre : ses entrées la comptent parmi les siennes et son nom "
        "s'affiche comme celui de cette personne. Tous les membres le voient.",
    ),
    "who_is": ("es {person}", "is {person}", "est {person}"),
    "who_is_nobody": (
        "aún no es ninguna persona de las entradas",
        "is no person of the entries yet",
        "ne correspond encore à aucune personne des entrées",
    ),
    "who_person_of": ("Quién es {member}", "Who {member} is", "Qui est {member}"),
    "who_link": ("Guardar", "Save", "Enregistrer"),
    "who_unlink": ("Quitar", "Take back", "Retirer"),
    "who_empty": (
        "Escribe qué persona es {member}: un nombre de la lista.",
        "Write which person {member} is: a name from the list.",
        "Écrivez quelle personne est {member} : un nom de la liste.",
    ),
    "who_unknown": (
        "No conoces a ninguna persona llamada «{person}»: elige un nombre de la lista. Nada ha cambiado.",
        "You know no person called “{person}”: choose a name from the list. Nothing was changed.",
        "Vous ne connaissez aucune personne appelée « {person} » : choisissez un nom de la liste. Rien n'a changé.",
    ),
    "who_not_a_person": (
        "«{person}» es {kind}, no una persona. Nada ha cambiado.",
        "“{person}” is {kind}, not a person. Nothing was changed.",
        "« {person} » est {kind}, pas une personne. Rien n'a changé.",
    ),
    "who_not_shared": (
        "Algunos miembros no saben aún de «{person}»: solo lo nombran entradas que no pueden ver, y todos ven quién "
        "es cada miembro. Añádelo antes para todos los miembros en «Añadir un nombre». Nada ha cambiado.",
        "Some members do not know of “{person}” yet: only entries they cannot see name them, and every member sees "
        "who each member is. Add the name for every member under “Add a name” first. Nothing was changed.",
        "Certains membres ne connaissent pas encore « {person} » : seules des entrées qu'ils ne voient pas le "
        "nomment, et tous voient qui est chaque membre. Ajoutez d'abord le nom pour tous les membres sous « Ajouter "
        "un nom ». Rien n'a changé.",
    ),
    "who_not_linked": (
        "{member} no era ninguna persona de las entradas: nada que quitar.",
        "{member} was no person of the entries: nothing to take back.",
        "{member} ne correspondait à aucune personne des entrées : rien à retirer.",
    ),
    "who_not_member": (
        "{member} no es miembro de este proyecto. Nada ha cambiado.",
        "{member} is not a member of this project. Nothing was changed.",
        "{member} n'est pas membre de ce projet. Rien n'a changé.",
    ),
    "who_gone": (
        "{member} ya no es miembro, o «{person}» ya no está. Nada ha cambiado.",
        "{member} is no longer a member, or “{person}” is gone. Nothing was changed.",
        "{member} n'est plus membre, ou « {person} » n'est plus là. Rien n'a changé.",
    ),
    "add_name": ("Añadir un nombre", "Add a name", "Ajouter un nom"),
    "add_name_note": (
        "Una persona, un lugar o una cosa que las entradas nombran, con los otros nombres por los que se la llama: "
        "las entradas que los usan la cuentan.",
        "A person, place or thing the entries name, with the other names it goes by: the entries that use them "
        "count it.",
        "Une personne, un lieu ou une chose que les entrées nomment, avec les autres noms qu'on lui donne : les "
        "entrées qui les emploient la comptent.",
    ),
    "name_field": ("Nombre", "Name", "Nom"),
    "kind_field": ("Qué es", "What it is", "Ce que c'est"),
    "aliases_field": ("También llamado", "Also called", "Aussi appelé"),
    "aliases_hint": (
        "Separados por comas: «yaya, abuela Rosa».",
        "Separated by commas: “grandma, Nana Rose”.",
        "Séparés par des virgules : « mamie, grand-mère Rose ».",
    ),
    "who_knows": ("Quién conoce este nombre", "Who knows this name", "Qui connaît ce nom"),
    "knows_private": ("Solo lo conoces tú.", "Only you know it.", "Vous seule le connaissez."),
    "knows_intimate": (
        "Lo conocen la propietaria y las coautoras.",
        "The owner and the coauthors know it.",
        "La propriétaire et les coautrices le connaissent.",
    ),
    "knows_circle": (
        "Lo conocen todos los miembros del proyecto.",
        "Every member of the project knows it.",
        "Tous les membres du projet le connaissent.",
    ),
    "knows_public": (
        "Lo conoce cualquiera con acceso al proyecto.",
        "Anyone with access to the project knows it.",
        "Toute personne ayant accès au projet le connaît.",
    ),
    "add": ("Añadir", "Add", "Ajouter"),
    "name_bad": (
        "Escribe un nombre (hasta {longest} caracteres) y, si quieres, hasta {most} nombres más separados por comas, "
        "cada uno de hasta {longest} caracteres, sin saltos de línea. Nada ha cambiado.",
        "Write a name (up to {longest} characters) and, if you like, up to {most} other names separated by commas, "
        "each up to {longest} characters, without line breaks. Nothing was changed.",
        "Écrivez un nom (jusqu'à {longest} caractères) et, si vous voulez, jusqu'à {most} autres noms séparés par des "
        "virgules, chacun de {longest} caractères au plus, sans retour à la ligne. Rien n'a changé.",
    ),
}
