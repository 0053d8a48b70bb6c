// graph.entity_merge.DECLARATION
MATCH (d:Declaration {id: $id}) RETURN d.aliases AS aliases
