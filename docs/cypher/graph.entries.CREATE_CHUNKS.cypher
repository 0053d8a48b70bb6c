// graph.entries.CREATE_CHUNKS
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
CREATE (c:Chunk {id: row.id, entry_id: row.entry_id, project_id: e.project_id, ord: row.ord, text: row.text,
                 context: row.context, embedding_hash: row.embedding_hash, embedding_model: row.model,
                 embedding_status: CASE WHEN row.vector IS NULL THEN 'pending' ELSE 'done' END,
                 embedding_error: row.error, sparse_tokens: row.sparse_tokens, sparse_weights: row.sparse_weights,
                 event_starts: row.event_starts, event_ends: row.event_ends, event_precisions: row.event_precisions,
                 event_weights: row.event_weights, created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH c, row WHERE row.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
