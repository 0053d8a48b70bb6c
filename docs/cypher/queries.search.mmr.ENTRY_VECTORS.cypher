// queries.search.mmr.ENTRY_VECTORS
UNWIND $ids AS id
MATCH (c:Chunk)-[:OF]->(e:Entry {id: id})
WHERE c[$prop] IS NOT NULL
RETURN id, collect(c[$prop]) AS vectors
