"""Graph layer: settings, the Neo4j runtime and driver, schema, visibility and repositories."""
