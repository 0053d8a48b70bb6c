// graph.entries.EXISTING
UNWIND $ids AS id
MATCH (e:Entry {id: id})
OPTIONAL MATCH (c:Chunk)-[:OF]->(e)
RETURN e.id AS id, e.project_id AS project_id, e.content_hash AS content_hash, e.thread_id AS thread_id,
       e.record_hash AS record_hash, e.file_hash AS file_hash, count(c) AS chunks,
       count(CASE WHEN c.embedding_status = 'done' AND c.embedding_model = $model THEN 1 END) AS embedded
