// graph.embeddings.STORE_VECTORS_HELD
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
REMOVE c.embed_claim
WITH c, row WHERE c.embed_lease_owner = $owner
SET c += row.props, c.embed_lease_owner = null, c.embed_lease_until = null,
    c[$stores_key] = coalesce(c[$stores_key], 0) + 1
WITH c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
RETURN c.id AS id
