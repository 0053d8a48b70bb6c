// graph.embeddings.CLAIM_TAKE
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
REMOVE c.embed_claim
WITH c WHERE c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) < $max_attempts AND coalesce(c.embed_lease_until, 0) < timestamp()
SET c.embed_lease_owner = $owner, c.embed_lease_until = timestamp() + $lease_ms
RETURN c.id AS id, c.context AS context, c.text AS text, coalesce(c[$attempts_key], 0) AS attempts
ORDER BY id
