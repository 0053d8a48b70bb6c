// graph.summaries.PERIOD_SCORES
UNWIND $ids AS sid
MATCH (s:Summary {id: sid})
WHERE s.embedding IS NOT NULL AND s.embedding_model = $model AND size(s.embedding) = size($vector)
RETURN s.id AS id, vector.similarity.cosine(s.embedding, $vector) AS score
