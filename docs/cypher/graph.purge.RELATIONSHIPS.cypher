// graph.purge.RELATIONSHIPS
MATCH (a)-[r]->(b)
RETURN elementId(a) AS a, elementId(b) AS b, type(r) AS type, properties(r) AS props
