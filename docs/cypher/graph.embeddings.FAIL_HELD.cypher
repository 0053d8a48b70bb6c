// graph.embeddings.FAIL_HELD
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
REMOVE c.embed_claim
WITH c, row WHERE c.embed_lease_owner = $owner
SET c += row.props, c.embed_lease_owner = null, c.embed_lease_until = null
RETURN c.id AS id
