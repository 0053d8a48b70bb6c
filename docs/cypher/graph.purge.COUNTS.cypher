// graph.purge.COUNTS
RETURN COUNT { MATCH (n) WHERE NOT n:PurgeDue } AS nodes, COUNT { MATCH ()-[r]->() } AS relationships
