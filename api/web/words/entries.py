"""Words of an entry, and of writing, editing and deleting one. Each key: (es, en, fr)."""

WORDS: dict[str, tuple[str, str, str]] = {
    "around_thread": (
        "Antes y después en la conversación",
        "Before and after in the conversation",
        "Avant et après dans la conversation",
    ),
    "around_date": ("Antes y después en el tiempo", "Before and after in time", "Avant et après dans le temps"),
    "author": ("Autora", "Author", "Autrice"),
    "date": ("Fecha", "Date", "Date"),
    "chapter": ("Capítulo", "Chapter", "Chapitre"),
    "tags": ("Etiquetas", "Tags", "Étiquettes"),
    "embedding_pending": (
        "Guardada. Aún se está indexando por significado: mientras tanto se encuentra por sus palabras.",
        "Saved. Still being indexed by meaning: until then it is found by its words.",
        "Enregistrée. Encore en cours d'indexation par le sens : d'ici là, on la trouve par ses mots.",
    ),
    "write": ("Escribir", "Write", "Écrire"),
    "entry": ("Entrada", "Entry", "Entrée"),
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
    "delete_title": ("¿Borrar esta entrada?", "Delete this entry?", "Supprimer cette entrée ?"),
    "delete_cannot_undo": (
        "Esto no se puede deshacer.",
        "This cannot be undone.",
        "Cette action est irréversible.",
    ),
    "delete_confirm": ("Sí, borrarla", "Yes, delete it", "Oui, la supprimer"),
    "delete_cancel": ("Cancelar", "Cancel", "Annuler"),
    "entry_deleted": ("Entrada borrada", "Entry deleted", "Entrée supprimée"),
}
