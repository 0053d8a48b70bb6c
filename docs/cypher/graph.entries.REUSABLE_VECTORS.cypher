// graph.entries.REUSABLE_VECTORS
UNWIND $rows AS row
MATCH (c:Chunk {embedding_hash: row.hash})-[:OF]->(e:Entry)
WHERE e.project_id = row.project_id AND c[$prop] IS NOT NULL
WITH row.project_id AS project_id, row.hash AS hash, head(collect(c)) AS c
RETURN project_id, hash, c[$prop] AS vector, c.sparse_tokens AS sparse_tokens, c.sparse_weights AS sparse_weights
