// graph.summaries.SCOPES
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (per:Period {project_id: $project_id})
WHERE EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(per) }
RETURN collect(per.id) AS periods
