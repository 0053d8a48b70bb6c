// graph.relink_epochs.HOLD_NAMES_EPOCH
MERGE (n:NamesEpoch {project_id: $project_id})
ON CREATE SET n.epoch = 0, n.relinked = 0
SET n.epoch = n.epoch
RETURN n.epoch AS epoch
