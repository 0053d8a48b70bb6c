"""Uses the client generated from /openapi.json as an integrator would; type-checked with mypy --strict and run
against the live service by tests/api/test_generated_client.py (environment: base URL, project, two tokens)."""

from __future__ import annotations

import os

from memora_client import AuthenticatedClient
from memora_client.api.entities import get_cooccurrence, get_timeline
from memora_client.api.entries import create_entry, get_entry
from memora_client.api.search import search
from memora_client.models import (
    CooccurrenceOut,
    EntryIn,
    EntryInIntimacy,
    EntryOut,
    ErrorOut,
    SearchRequest,
    SearchResponseOut,
    TimelineOut,
    ValidationErrorOut,
    WriteOut,
    WriteOutStatus,
)


def main() -> None:
    base, project = os.environ["MEMORA_BASE_URL"], os.environ["MEMORA_PROJECT"]
    owner = AuthenticatedClient(base_url=base, token=os.environ["MEMORA_OWNER_TOKEN"], timeout=None)
    reader = AuthenticatedClient(base_url=base, token=os.environ["MEMORA_READER_TOKEN"], timeout=None)

    shown = f"{project}/berlin"
    written = create_entry.sync(
        client=owner,
        wait=True,
        body=EntryIn(
            project_id=project,
            entry_id=shown,
            text="Pep y Marta lloraron en la estación de Berlín.",
            persons=["Pep", "Marta"],
            places=["Berlín"],
            occurred_on="2009-02",
            intimacy=EntryInIntimacy.CIRCLE,
        ),
    )
    assert isinstance(written, WriteOut) and written.status == WriteOutStatus.CREATED, written
    hidden = create_entry.sync(
        client=owner,
        wait=True,
        body=EntryIn(
            project_id=project,
            entry_id=f"{project}/secret",
            text="Pep y Lucía, un secreto en Berlín.",
            persons=["Pep", "Lucía"],
            intimacy=EntryInIntimacy.PRIVATE,
        ),
    )
    assert isinstance(hidden, WriteOut), hidden

    entry = get_entry.sync(client=reader, entry_id=shown)
    assert isinstance(entry, EntryOut) and entry.text.startswith("Pep y Marta"), entry
    missing = get_entry.sync_detailed(client=reader, entry_id=f"{project}/secret")
    assert missing.status_code == 404 and isinstance(missing.parsed, ErrorOut), missing
    assert missing.parsed.detail == "entry not found"

    found = search.sync(client=reader, body=SearchRequest(q="¿cuándo lloramos en Berlín?", project_id=project))
    assert isinstance(found, SearchResponseOut), found
    assert [r.entry_id for r in found.results] == [shown], [r.entry_id for r in found.results]

    together = get_cooccurrence.sync(client=reader, project_id=project, entity="Pep")
    assert isinstance(together, CooccurrenceOut), together
    assert sorted(c.name for c in together.with_) == ["Berlín", "Marta"], together

    years = get_timeline.sync(client=reader, project_id=project, entity="Pep")
    assert isinstance(years, TimelineOut) and [(y.year, y.entries) for y in years.years] == [(2009, 1)], years

    bad = search.sync_detailed(client=reader, body=SearchRequest(q="x", project_id=project, k=1000))
    assert bad.status_code == 422 and isinstance(bad.parsed, ValidationErrorOut), bad
    assert bad.parsed.detail[0].loc[-1] == "k", bad.parsed
    print("all calls answered as documented")


if __name__ == "__main__":
    main()
