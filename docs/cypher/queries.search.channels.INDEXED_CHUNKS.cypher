// queries.search.channels.INDEXED_CHUNKS
MATCH (c:Chunk) RETURN count(c) AS n
