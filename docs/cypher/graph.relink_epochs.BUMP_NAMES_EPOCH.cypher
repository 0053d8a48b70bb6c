// graph.relink_epochs.BUMP_NAMES_EPOCH
MERGE (n:NamesEpoch {project_id: $project_id})
ON CREATE SET n.epoch = 0, n.relinked = 0
WITH n, n.epoch + 1 AS epoch, EXISTS { MATCH (:Entry {project_id: $project_id}) } AS entries
SET n.epoch = epoch, n.relinked = CASE WHEN entries THEN n.relinked ELSE epoch END
RETURN epoch
