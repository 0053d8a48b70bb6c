// graph.forgetting.DROP_EMPTY_PERIODS
UNWIND $ids AS pid
MATCH (p:Period {id: pid})
WHERE NOT EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(p) } AND NOT EXISTS { MATCH (:WitnessGrant)-[:FOR]->(p) }
  AND NOT EXISTS { MATCH (:Period)-[:PART_OF]->(p) }
OPTIONAL MATCH (v:EntityVector)-[:VECTOR_OF]->(p)
OPTIONAL MATCH (s:Summary)-[:SUMMARISES]->(p)
DETACH DELETE v, s, p
RETURN count(DISTINCT p) AS dropped
