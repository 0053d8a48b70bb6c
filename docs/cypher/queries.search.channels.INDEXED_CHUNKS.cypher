// queries.search.channels.INDEXED_CHUNKS
MATCH (c:Chunk) WHERE c[$prop] IS NOT NULL RETURN count(c) AS n
