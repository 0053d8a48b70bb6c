// queries.search.channels.PROJECT_CHUNKS
MATCH (c:Chunk) WHERE c.project_id IN $project_ids RETURN count(c) AS n
