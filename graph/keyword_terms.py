"""Fill `ft_terms` (the folded words the keyword channel counts in Cypher) on entries written before it existed.

Ingest writes it with every entry (ingest/pipeline.py); this is the one-off data step `memora migrate` runs after the
schema files, in batches, each write guarded by the entry's content hash so an entry rewritten meanwhile keeps the
value its own write gave it. Until filled, the keyword channel counts such an entry's words in Python: same scores.
"""

from __future__ import annotations

import logging

from graph.db import Graph
from graph.textnorm import term_string, words

log = logging.getLogger(__name__)

# What the fulltext index holds of an entry `e` (migrations/005_fulltext_context.cypher), as one text.
INDEXED_TEXT = (
    "coalesce(e.title, '') + ' ' + coalesce(e.body, '') + ' ' + coalesce(e.names, '') + ' ' + coalesce(e.context, '')"
)


# The same fields as the statement's viewer may read them: a witness reads `w_names`, `w_ft_terms` and `w_ft_len`
# where ingest wrote them (a circle entry linked through a name declared for members only: those names are not in
# them), else the members' fields. Statements using these bind the entry to `e` and pass `$witness_period_id`.
def viewer_field(name: str) -> str:
    return f"CASE WHEN $witness_period_id IS NULL THEN e.{name} ELSE coalesce(e.w_{name}, e.{name}) END"


VIEWER_NAMES, VIEWER_FT_TERMS, VIEWER_FT_LEN = (viewer_field(n) for n in ("names", "ft_terms", "ft_len"))
VIEWER_INDEXED_TEXT = INDEXED_TEXT.replace("e.names", f"({VIEWER_NAMES})")

MISSING = f"""
MATCH (e:Entry) WHERE e.ft_terms IS NULL
RETURN e.id AS id, e.content_hash AS hash, {INDEXED_TEXT} AS text
LIMIT $batch
"""

FILL = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.ft_terms IS NULL AND coalesce(e.content_hash, '') = row.hash
SET e.ft_terms = row.terms, e.ft_len = row.length
RETURN count(e) AS filled
"""


def fill_terms(graph: Graph, batch: int = 500) -> int:
    """Fill every entry lacking `ft_terms`; returns how many were filled."""
    filled = 0
    while True:
        rows = graph.read(MISSING, {"batch": batch})
        if not rows:
            return filled
        payload = []
        for r in rows:
            tokens = words(r["text"])
            payload.append(
                {"id": r["id"], "hash": r["hash"] or "", "terms": term_string(tokens), "length": len(tokens)}
            )
        done = int(graph.write(FILL, {"rows": payload})[0]["filled"])
        filled += done
        if done == 0:  # every one rewritten meanwhile (they carry their own now) or gone: nothing left to do here
            return filled
        log.info("keyword terms filled for %d entries", filled)
