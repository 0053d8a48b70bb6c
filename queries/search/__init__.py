"""The search door (`door.py`) and everything one search runs: query understanding, the channels (keyword, dense,
structured, thread, graph), fusion and the learned ranker, rerank, diversification, snippets and the caches that keep
a viewer's view, their lexicon, query vectors and whole answers."""
