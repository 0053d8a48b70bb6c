// graph.purge.CREATE_NODES
UNWIND $rows AS row
CREATE (n:$(row.labels))
SET n = row.props
WITH n, row
CALL (n, row) {
  UNWIND row.vectors AS v
  CALL db.create.setNodeVectorProperty(n, v.key, v.vector)
}
RETURN row.id AS old, elementId(n) AS new
