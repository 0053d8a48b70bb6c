"""One APIRouter per resource; `api.app.create_app` includes them in this order (the OpenAPI document's order)."""
