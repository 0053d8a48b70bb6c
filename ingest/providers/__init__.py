"""One module per embedding provider; `ingest.embedders.get_embedder` imports them only when chosen (torch is
optional)."""
