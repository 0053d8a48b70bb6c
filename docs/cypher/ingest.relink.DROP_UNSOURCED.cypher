// ingest.relink.DROP_UNSOURCED
MATCH (n:Person|Place|Thing {project_id: $project_id})
WHERE NOT EXISTS { MATCH (:Entry)-[:MENTIONS]->(n) } AND NOT EXISTS { MATCH (:Declaration)-[:DECLARES]->(n) }
DETACH DELETE n
