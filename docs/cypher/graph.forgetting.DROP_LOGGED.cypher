// graph.forgetting.DROP_LOGGED
MATCH (s:SearchLog) WHERE $id IN s.result_ids DELETE s
