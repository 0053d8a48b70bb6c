// graph.embeddings.SET_STATE
MERGE (s:EmbeddingState {id: 'state'})
SET s.active = $active, s.active_slug = $active_slug, s.target = $target, s.target_slug = $target_slug,
    s.retired = $retired, s.updated_at = datetime()
