// graph.embeddings.LOCK_CHUNKS
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
SET c.embed_claim = $owner
