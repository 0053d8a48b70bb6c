// graph.forgetting.DROP_UNSOURCED
UNWIND $ids AS xid
CALL {
  WITH xid MATCH (x:Person {id: xid}) RETURN x
  UNION
  WITH xid MATCH (x:Place {id: xid}) RETURN x
  UNION
  WITH xid MATCH (x:Thing {id: xid}) RETURN x
}
WITH x, xid
WHERE NOT EXISTS { MATCH (:Entry)-[:MENTIONS]->(x) } AND NOT EXISTS { MATCH (:Declaration)-[:DECLARES]->(x) }
OPTIONAL MATCH (v:EntityVector)-[:VECTOR_OF]->(x)
DETACH DELETE v, x
RETURN collect(DISTINCT xid) AS dropped
