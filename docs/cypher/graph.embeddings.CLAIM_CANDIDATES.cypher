// graph.embeddings.CLAIM_CANDIDATES
MATCH (c:Chunk)
WHERE c.id > $after AND c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) < $max_attempts AND coalesce(c.embed_lease_until, 0) < timestamp() AND ($project_id IS NULL OR c.project_id = $project_id)
WITH c ORDER BY c.id LIMIT $limit
SET c.embed_claim = $owner
RETURN c.id AS id
