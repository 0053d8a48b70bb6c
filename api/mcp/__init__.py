"""`memora mcp`: the agents' door (Model Context Protocol), as private as the HTTP API because every tool, resource
and prompt runs the actions the API's routes run, with the caller's viewer (see `tools`, `resources`, `server`)."""
