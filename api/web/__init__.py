"""The web app at `/`: server-rendered pages over the actions the API's routes run, with its viewer rules
(docs/web.md)."""
