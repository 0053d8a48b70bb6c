"""The `memora` subcommands, one module per group; each `add_*` function registers one subcommand and its handler.

Handlers import the graph, ingest and query layers inside their bodies, so `memora --help` and `memora token` stay
fast and need neither Neo4j nor a model.
"""
