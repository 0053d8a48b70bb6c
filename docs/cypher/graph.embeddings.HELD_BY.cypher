// graph.embeddings.HELD_BY
MATCH (c:Chunk) WHERE c.embed_lease_owner = $owner RETURN c.id AS id
