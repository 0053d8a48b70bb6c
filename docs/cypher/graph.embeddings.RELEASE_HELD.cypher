// graph.embeddings.RELEASE_HELD
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
REMOVE c.embed_claim
WITH c WHERE c.embed_lease_owner = $owner
SET c.embed_lease_owner = null, c.embed_lease_until = null
RETURN c.id AS id
