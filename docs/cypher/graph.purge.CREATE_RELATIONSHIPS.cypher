// graph.purge.CREATE_RELATIONSHIPS
UNWIND $rows AS row
MATCH (a) WHERE elementId(a) = row.a
MATCH (b) WHERE elementId(b) = row.b
CREATE (a)-[r:$(row.type)]->(b)
SET r = row.props
