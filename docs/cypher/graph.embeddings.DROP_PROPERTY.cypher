// graph.embeddings.DROP_PROPERTY
MATCH (c:Chunk) WHERE c[$prop] IS NOT NULL
WITH c LIMIT $limit
SET c += $nulls
RETURN count(c) AS n
