"""The settings the ingest layer reads: the background jobs' pace and name recognition at ingest."""

from __future__ import annotations

from pydantic import BaseModel, Field


class IngestSettings(BaseModel):
    """How the write side works in the background: the embedding and summary jobs, and the names spaCy finds."""

    embed_lease_seconds: float = Field(
        default=120.0,
        gt=0,
        description="How long a worker holds a claimed batch of chunks; longer than a batch takes to embed. A killed "
        "worker's chunks go to the others after this.",
    )
    embed_worker_interval_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often the embedding worker inside `serve` (and `mcp`) looks for pending "
        "chunks when it has none; several replicas' workers each look this often.",
    )
    # Summaries (ingest/summary_jobs.py).
    summary_refresh_seconds: float = Field(
        default=30.0, gt=0, description="How often the summary worker looks for stale summaries."
    )

    # Name recognition at ingest (ingest/recognition.py): names spaCy finds that are not known entities become
    # candidates for review (`memora entity candidates`).
    recognition: bool = Field(default=True, description="Record names spaCy finds at ingest as candidates.")
    spacy_pipelines: str = Field(
        default="fr=fr_core_news_sm",
        description="lang=package,... statistical spaCy pipelines to use where installed; other languages (and a "
        "named one that is missing, reported once) use rule pipelines on spacy.blank(lang).",
    )
    recognition_default_language: str = Field(
        default="es", description="The language of an entry too short for its language to be detected."
    )
