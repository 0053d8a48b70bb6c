// graph.embeddings.GET_STATE
MATCH (s:EmbeddingState {id: 'state'})
RETURN s.active AS active, s.active_slug AS active_slug, s.target AS target, s.target_slug AS target_slug,
       s.retired AS retired
