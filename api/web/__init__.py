"""The web app at `/`: server-rendered pages over the API's own route functions and viewer rules (docs/web.md)."""
