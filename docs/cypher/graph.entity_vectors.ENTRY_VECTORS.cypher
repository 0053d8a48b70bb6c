// graph.entity_vectors.ENTRY_VECTORS
UNWIND $ids AS id
MATCH (c:Chunk {entry_id: id}) WHERE c[$prop] IS NOT NULL
WITH id, c ORDER BY c.ord
RETURN id, collect(c[$prop]) AS vectors
