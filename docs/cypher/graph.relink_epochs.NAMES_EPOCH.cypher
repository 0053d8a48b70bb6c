// graph.relink_epochs.NAMES_EPOCH
MATCH (n:NamesEpoch {project_id: $project_id}) RETURN n.epoch AS epoch
