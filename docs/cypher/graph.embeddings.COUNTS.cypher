// graph.embeddings.COUNTS
MATCH (c:Chunk)
RETURN count(c) AS total, count(c[$prop]) AS done,
       count(CASE WHEN c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) >= $max_attempts THEN 1 END) AS failed,
       count(CASE WHEN c[$prop] IS NULL AND c.embed_lease_until >= timestamp() THEN 1 END) AS leased
