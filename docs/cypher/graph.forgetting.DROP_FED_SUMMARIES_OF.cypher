// graph.forgetting.DROP_FED_SUMMARIES_OF
UNWIND $ids AS eid MATCH (s:Summary)-[:FED_BY]->(:Entry {id: eid}) DETACH DELETE s
