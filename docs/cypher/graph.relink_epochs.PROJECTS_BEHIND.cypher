// graph.relink_epochs.PROJECTS_BEHIND
MATCH (n:NamesEpoch) WHERE n.epoch > n.relinked
RETURN n.project_id AS id, n.epoch AS epoch ORDER BY id
