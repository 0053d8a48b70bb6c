"""Request and response bodies of the HTTP API and the MCP tools (what /openapi.json documents), by family."""
