// graph.summaries.SET_VECTOR
MATCH (s:Summary {id: $id})
SET s.embedding = $vector, s.embedding_model = $model
