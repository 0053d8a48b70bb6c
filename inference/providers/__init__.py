"""One module per embedding provider; `inference.embedders.get_embedder` imports the torch-based ones only when chosen
(torch is optional). What they share is `inference.providers.base`; they never import `inference.embedders`."""
