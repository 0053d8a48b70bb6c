"""`memora mcp`: the agents' door (Model Context Protocol), as private as the HTTP API because every tool, resource
and prompt goes through the API's own route functions with the caller's viewer (see `tools`, `resources`,
`server`)."""
