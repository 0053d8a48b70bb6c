// graph.entity_merge.LOCK
MATCH (n:Person|Place|Thing) WHERE n.id IN $ids SET n.edited_at = datetime() RETURN n.id AS id
