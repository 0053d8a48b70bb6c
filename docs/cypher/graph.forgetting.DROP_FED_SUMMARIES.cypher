// graph.forgetting.DROP_FED_SUMMARIES
MATCH (s:Summary)-[:FED_BY]->(:Entry {id: $id}) DETACH DELETE s
