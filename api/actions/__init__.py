"""The use cases, one module per family (search, write, read, context): each a plain function over typed inputs
and the Services object, that spends its own rate budget and raises domain errors. The API's routes, the web pages,
the MCP tools and the CLI are adapters over them, so every door pays the same budget for the same action."""
