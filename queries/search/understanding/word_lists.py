"""Word lists for query understanding (es/en/fr), all in folded form (lower-case, no accents).

Kept apart from the parser so the vocabulary can grow without touching the grammar; calendar words live in
`temporal_words.py`. Kinship words are deliberately absent: they are entity aliases supplied by the project.
"""

from __future__ import annotations

# Word lists read best a few words to a line, as written.
# fmt: off
from inference.dates.temporal_words import (
    MONTHS_EN,
    MONTHS_ES,
    MONTHS_FR,
    NUMBERS_EN,
    NUMBERS_ES,
    NUMBERS_FR,
    SEASONS_EN,
    SEASONS_ES,
    SEASONS_FR,
    UNITS_EN,
    UNITS_ES,
    UNITS_FR,
    WEEKDAYS_EN,
    WEEKDAYS_ES,
    WEEKDAYS_FR,
)

# Words that may dangle before a removed span or at the end of cleaned_text: articles, prepositions,
# possessives and conjunctions.
DANGLING: frozenset[str] = frozenset({
    "de", "del", "a", "al", "en", "con", "por", "para", "el", "la", "los", "las", "un", "una", "y", "e", "o",
    "u", "desde", "hasta", "durante", "sobre", "entre", "sin", "segun", "hacia", "mi", "mis", "tu", "tus",
    "su", "sus", "nuestro", "nuestra", "nuestros", "nuestras",
    "of", "in", "on", "at", "with", "by", "for", "from", "to", "the", "an", "and", "or", "during", "since",
    "until", "my", "your", "his", "her", "our", "their", "about",
    "du", "des", "d", "l", "le", "les", "au", "aux", "avec", "par", "pour", "dans", "pendant", "depuis", "et",
    "ou", "mon", "ma", "mes", "ton", "ta", "tes", "son", "sa", "ses", "notre", "nos", "une", "chez", "sur",
})

LEADING_CONNECTORS: frozenset[str] = frozenset({"y", "e", "o", "u", "and", "or", "et", "ou"})

QUESTION_WORDS: frozenset[str] = frozenset({
    "que", "quien", "quienes", "cuando", "donde", "como", "cual", "cuales", "cuanto", "cuanta", "cuantos",
    "cuantas", "adonde",
    "what", "who", "whom", "whose", "when", "where", "how", "which", "why",
    "quoi", "qui", "quand", "ou", "comment", "quel", "quelle", "quels", "quelles", "pourquoi", "qu",
    "combien",
})

# Questions whose answer is a time ("when did...", "¿en qué año...?", "depuis quand..."): folded regex fragments.
TIME_QUESTIONS: tuple[str, ...] = (
    r"when", r"(?:in\s+|on\s+|at\s+)?what\s+(?:year|month|day|date|time)", r"which\s+(?:year|month|day|date)",
    r"how\s+long\s+ago",
    r"cuando", r"en\s+que\s+(?:ano|mes|dia|fecha|epoca|momento)", r"que\s+(?:dia|fecha)", r"hace\s+cuanto",
    r"desde\s+cuando",
    r"(?:depuis\s+)?quand", r"en\s+quelle\s+annee", r"quel(?:le)?\s+(?:jour|annee|mois|date)", r"a\s+quelle\s+date",
    r"il\s+y\s+a\s+combien",
)

# Auxiliaries opening yes/no questions about the past ("did we...", "¿fuimos...?" is caught by "?").
PAST_AUX_START: frozenset[str] = frozenset({"did", "was", "were", "had"})

CLITICS: frozenset[str] = frozenset({
    "le", "les", "lo", "la", "los", "las", "me", "te", "se", "nos", "os", "est", "ce", "que", "qu", "on",
    "nous", "vous", "je", "j", "tu", "il", "elle", "ils", "elles",
})

PAST_WORDS: frozenset[str] = frozenset({
    "dijo", "dije", "dijiste", "dijimos", "dijeron", "fue", "fui", "fuiste", "fuimos", "fueron", "hizo", "hice",
    "hiciste", "hicimos", "hicieron", "estuvo", "estuve", "estuvimos", "estuvieron", "tuvo", "tuve", "tuvimos",
    "vimos", "vi", "vio", "viste", "vieron", "puso", "pusimos", "trajo", "trajimos", "dio", "dimos", "vino",
    "vinimos", "quiso", "supo", "conocimos", "comimos", "paso", "pasamos", "regalo", "era", "eramos", "eras",
    "habia", "habiamos", "estaba", "estabamos", "ha", "hemos", "han", "has", "he",
    "did", "was", "were", "went", "said", "told", "happened", "had", "came", "ate", "saw", "gave", "bought",
    "made", "got", "took", "met", "thought", "felt", "wrote", "spent", "left", "found", "drove", "flew",
    "a", "as", "ai", "avons", "avez", "ont", "sommes", "etions", "etait", "etais", "etaient", "avait", "avions",
    "etes", "sont", "suis", "fut", "fumes", "dit", "fait", "alle", "allee", "alles", "allees",
})

# Past forms that are also common nouns, prepositions or present tense: trusted only right after a question word.
PAST_AMBIGUOUS: frozenset[str] = frozenset({
    "a", "as", "ai", "ha", "he", "has", "han", "hemos", "avons", "avez", "ont", "sommes", "etes", "sont", "suis",
    "era", "eras", "paso", "regalo", "vi", "dit", "fait", "left", "made", "got", "met", "saw", "found",
})

FR_AUXILIARIES: frozenset[str] = frozenset({
    "ai", "as", "a", "avons", "avez", "ont", "suis", "es", "est", "sommes", "etes", "sont", "avait", "avions",
    "etait", "etions",
})
FR_PARTICIPLES: frozenset[str] = frozenset({
    "dit", "fait", "vu", "eu", "pris", "mis", "ecrit", "lu", "bu", "su", "venu", "venus", "venue", "venues",
    "mort", "morte", "ouvert", "offert", "appris", "compris", "parti", "partis", "partie", "fini", "choisi",
    "dormi", "sorti", "sortis", "reussi", "ri", "vecu", "connu", "voulu", "pu", "du", "perdu", "attendu",
})

SPANISH_PAST_ENDINGS: tuple[str, ...] = (
    "amos", "imos", "aron", "ieron", "aste", "iste", "aba", "abas", "aban", "abamos", "iamos", "ieramos",
)

RECALL_CUES: tuple[str, ...] = (
    r"recuerdas", r"te\s+acuerdas", r"os\s+acordais", r"recuerdo", r"me\s+acuerdo", r"acordarme",
    r"la\s+vez\s+que", r"aquella\s+vez", r"el\s+dia\s+(?:en\s+)?que", r"cuando\s+(?:fuimos|estuvimos|vivimos)",
    r"remember", r"recall", r"the\s+time\s+(?:when|we|i|that)", r"the\s+day\s+(?:when|we|i|that)",
    r"souviens", r"souvenir\s+de", r"rappelle", r"la\s+fois\s+ou", r"le\s+jour\s+ou",
)

# Conversational openers that carry no topic: removed from cleaned_text.
RECALL_FILLERS: tuple[str, ...] = (
    r"(?:te\s+acuerdas|os\s+acordais|recuerdas|do\s+you\s+remember|remember|tu\s+te\s+souviens|te\s+souviens-tu"
    r"|tu\s+te\s+rappelles)(?:\s+(?:de|del|of|when|que|du|de\s+la|quand))?",
)

BROWSE_PHRASES: tuple[str, ...] = (
    r"muestrame", r"muestra(?:me)?", r"ensename", r"ensenarme", r"mostrar(?:me)?", r"listar?(?:\s+de)?",
    r"ver\s+todo(?:\s+(?:sobre|de|lo\s+de))?", r"tod[oa]s\s+l[oa]s\s+(?:entradas|notas|fotos|recuerdos|textos)"
    r"(?:\s+(?:de|del|sobre|con|en))?", r"todo\s+(?:sobre|lo\s+de|lo\s+que\s+hay\s+(?:de|sobre))",
    r"show\s+me(?:\s+all)?(?:\s+(?:the\s+)?(?:entries|notes|memories)(?:\s+(?:about|from|with|of))?)?",
    r"list\s+(?:all|every)(?:\s+(?:entries|notes|memories))?(?:\s+(?:about|from|with|of))?",
    r"all\s+(?:my\s+|the\s+)?(?:entries|notes|memories)(?:\s+(?:about|from|with|of))?",
    r"everything\s+(?:about|with|from|on)",
    r"montre[- ]moi(?:\s+tout)?", r"affiche(?:\s+tout)?", r"tout\s+(?:sur|ce\s+qui\s+concerne)",
    r"toutes\s+les\s+(?:entrees|notes|photos|souvenirs)(?:\s+(?:de|du|des|sur|avec))?",
)

SUBJECTIVE_PHRASES: tuple[str, ...] = (
    r"como\s+(?:me|nos|te|se)\s+sent\w*", r"que\s+(?:sentia|senti|sentiamos|pensaba|pense|opinaba|opine"
    r"|pensabamos)", r"(?:mis|nuestros)\s+(?:sentimientos|emociones)", r"estado\s+de\s+animo", r"me\s+senti\w*",
    r"how\s+(?:did|do|was|were)\s+(?:i|we)\s+feel(?:ing)?", r"how\s+(?:i|we)\s+felt", r"what\s+did\s+(?:i|we)"
    r"\s+(?:think|feel)", r"what\s+i\s+(?:thought|felt)", r"my\s+(?:feelings|mood|emotions)", r"i\s+felt",
    r"comment\s+(?:je\s+)?(?:me|nous)\s+sent\w*", r"comment\s+je\s+(?:me\s+)?sentais",
    r"(?:qu'est-ce\s+que|ce\s+que|que)\s+je\s+(?:pensais|ressentais)", r"(?:mes|nos)\s+(?:sentiments|emotions)",
    r"ressenti\w*",
)

EMOTION_NEGATIVE_STEMS: tuple[str, ...] = (
    "trist", "llor", "lagrim", "angusti", "ansied", "ansios", "asust", "enfad", "enoj", "deprim", "depresi",
    "sufr", "soledad", "muri", "muert", "entierro", "funeral", "discusi", "pele", "preocup", "estres", "frustr",
    "decepci", "arrepent", "verguenz", "agobi", "dolid", "desgraci", "horribl", "terribl",
    "pleur", "larme", "angoiss", "malheur", "souffr", "inquiet", "deuil", "enterrement", "dispute",
    "cried", "crying", "tears", "grief", "griev", "depress", "anxi", "miserabl", "lonel", "unhapp", "upset",
    "scared", "frighten", "worri", "stress", "furious",
)
EMOTION_NEGATIVE_WORDS: frozenset[str] = frozenset({
    "pena", "miedo", "rabia", "dolor", "duelo", "odio", "mal", "peor", "fatal",
    "sad", "sadness", "cry", "cries", "angry", "anger", "afraid", "fear", "died", "death", "awful", "worst",
    "hurt", "pain", "painful", "fight", "argued", "argument", "lost", "loss",
    "triste", "tristesse", "peur", "colere", "mort", "morte", "pire", "douleur", "fache", "fachee",
})
EMOTION_POSITIVE_STEMS: tuple[str, ...] = (
    "feliz", "felic", "alegr", "content", "ilusion", "emocionad", "divert", "disfrut", "celebr", "orgull",
    "encant", "maravill", "fantastic", "increibl", "carcajad", "rieron", "reimos", "reiamos",
    "heureu", "bonheur", "rigol", "merveill", "magnifiq", "amus", "genia",
    "laugh", "wonderful", "amazing", "lovel", "excit", "proud", "enjoy", "beautiful", "celebrat",
)
EMOTION_POSITIVE_WORDS: frozenset[str] = frozenset({
    "risa", "risas", "reir", "amor", "mejor", "bonito", "bonita", "genial", "guay", "gozo", "precioso",
    "preciosa",
    "happy", "happier", "happiest", "happiness", "joy", "joyful", "glad", "fun", "funny", "great", "love",
    "loved", "best", "awesome", "joie", "rire", "rires", "ri", "fier", "fiere", "amour", "adore", "super",
})
EMOTION_INQUIRY: frozenset[str] = frozenset({
    "sentia", "senti", "sentiamos", "sentimiento", "sentimientos", "emocion", "emociones", "animo",
    "feel", "felt", "feeling", "feelings", "mood", "emotion", "emotions",
    "sentais", "sentait", "sentiment", "sentiments", "ressenti", "ressentais", "humeur",
})
NEGATORS: frozenset[str] = frozenset({
    "no", "not", "never", "nunca", "jamas", "pas", "jamais", "sin", "without", "ni",
    "didn", "wasn", "weren", "don", "doesn", "isn", "aren", "couldn", "wouldn", "haven", "hasn", "hadn",
})

# Function words that identify a language (only words that are not also common in the other two).
_LANGUAGE_BASE: dict[str, frozenset[str]] = {
    "es": frozenset({
        "el", "los", "las", "del", "al", "y", "con", "por", "para", "una", "uno", "mi", "mis", "cuando",
        "donde", "quien", "como", "fue", "fuimos", "dijo", "hace", "ano", "anos", "pasado", "pasada", "semana",
        "verano", "invierno", "otono", "primavera", "ayer", "hoy", "anteayer", "solo", "lo", "todo", "todas",
        "todos", "sobre", "desde", "hasta", "es", "estaba", "muestrame", "dia", "dias",
        "entradas", "cual", "pero", "muy", "yo", "su", "sus", "esta", "este", "esto", "escribio", "hicimos",
        "estuvimos", "navidad", "nochebuena", "nochevieja", "recuerdas", "acuerdas", "sentia", "cuanto",
        "tambien", "padre", "madre", "hermano", "hermana", "noventa", "ochenta", "unos",
        "recientemente", "ultimamente", "algo",
    }),
    "en": frozenset({
        "the", "of", "and", "in", "with", "what", "when", "where", "who", "how", "did", "do", "does", "was",
        "were", "is", "are", "my", "our", "we", "i", "you", "he", "she", "they", "last", "this", "that", "ago",
        "show", "all", "about", "from", "to", "at", "for", "year", "years", "month", "week", "summer", "winter",
        "spring", "autumn", "day", "days", "yesterday", "today", "only", "wrote", "written", "between",
        "everything", "remember", "time", "night", "weekend", "recently", "christmas", "eve", "it", "an", "be",
        "say", "said", "go", "went", "by", "father", "mother", "dad", "mum", "mom", "brother", "sister",
        "feel", "felt", "think", "nineties", "lately", "happy", "sad", "flat", "any", "which", "early",
        "late", "mid", "new", "couple", "few", "before", "after", "entries", "memories",
    }),
    "fr": frozenset({
        "le", "les", "du", "des", "et", "avec", "pour", "dans", "quand", "ou", "qui", "quoi", "qu", "c", "l", "d",
        "j", "n", "est", "etait", "etions", "sommes", "avons", "nous", "je", "mon", "ma", "ce", "cette",
        "cet", "dernier", "derniere", "il", "ans", "annee", "annees", "mois", "semaine", "jour", "jours", "hier",
        "avant", "ete", "hiver", "printemps", "automne", "noel", "sur", "pas", "ne", "tout", "toutes", "tous",
        "seulement", "ecrit", "au", "aux", "ont", "comment", "pere", "mere", "montre", "moi", "souviens",
        "passe", "aujourd", "hui", "chez", "fait", "dit", "allees", "alles", "alle", "recemment",
        "appartement", "frere", "soeur", "heureux", "triste", "etais", "sentais", "saint", "sylvestre",
        "reveillon", "veille", "quelques", "photos", "entrees", "souvenirs", "dernieres", "derniers",
    }),
}


def _distinctive() -> dict[str, frozenset[str]]:
    """Function words plus each language's own calendar words, minus any word shared between languages."""
    extra = {
        "es": (MONTHS_ES, SEASONS_ES, WEEKDAYS_ES, NUMBERS_ES, UNITS_ES),
        "en": (MONTHS_EN, SEASONS_EN, WEEKDAYS_EN, NUMBERS_EN, UNITS_EN),
        "fr": (MONTHS_FR, SEASONS_FR, WEEKDAYS_FR, NUMBERS_FR, UNITS_FR),
    }
    pools = {lang: set(_LANGUAGE_BASE[lang]).union(*extra[lang]) for lang in extra}
    shared = {w for lang in pools for w in pools[lang] for other in pools if other != lang and w in pools[other]}
    shared |= {"a", "once", "mes"}
    return {lang: frozenset(pool - shared) for lang, pool in pools.items()}


LANGUAGE_WORDS: dict[str, frozenset[str]] = _distinctive()
