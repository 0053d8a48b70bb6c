// graph.relink_epochs.MARK_RELINKED
MATCH (n:NamesEpoch {project_id: $project_id})
WHERE n.epoch = $epoch
SET n.relinked = $epoch
