// graph.relink_epochs.BUMP_NAMES_EPOCH
MERGE (n:NamesEpoch {project_id: $project_id})
ON CREATE SET n.epoch = 0, n.relinked = 0
SET n.epoch = n.epoch + 1
WITH n, EXISTS { MATCH (:Entry {project_id: $project_id}) } AS entries
SET n.relinked = CASE WHEN entries THEN n.relinked ELSE n.epoch END
RETURN n.epoch AS epoch
