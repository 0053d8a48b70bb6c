// graph.entity_merge.REMOVE_ALIASES
UNWIND $rows AS row
MATCH (d:Declaration {id: row.id})
SET d.aliases = [a IN d.aliases WHERE NOT a IN row.aliases]
