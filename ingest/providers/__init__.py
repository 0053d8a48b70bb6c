"""One module per embedding provider; `ingest.embedders.get_embedder` imports the torch-based ones only when chosen
(torch is optional). What they share is `ingest.providers.base`; they never import `ingest.embedders`."""
