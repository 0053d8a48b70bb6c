// graph.forgetting.AUTHORED_NAME_RECORDS
MATCH (d:Declaration|Dismissal|EntityMerge {project_id: $project_id}) WHERE d.author_id = $user_id
RETURN labels(d)[0] AS label, d.intimacy AS intimacy, COLLECT { MATCH (d)-[:DECLARES]->(x) RETURN x.id } AS entities
