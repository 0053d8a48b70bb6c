// graph.forgetting.DROP_UNSOURCED_IN_PROJECT
MATCH (x:Person|Place|Thing {project_id: $project_id})
WHERE NOT EXISTS { MATCH (:Entry)-[:MENTIONS]->(x) } AND NOT EXISTS { MATCH (:Declaration)-[:DECLARES]->(x) }
OPTIONAL MATCH (v:EntityVector)-[:VECTOR_OF]->(x)
DETACH DELETE v, x
