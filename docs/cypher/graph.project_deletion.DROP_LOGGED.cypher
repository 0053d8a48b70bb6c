// graph.project_deletion.DROP_LOGGED
MATCH (s:SearchLog) WHERE $project_id IN s.project_ids
WITH s LIMIT $batch
DELETE s
RETURN count(*) AS deleted
