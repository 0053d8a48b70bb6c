// graph.summaries.DIRTY
OPTIONAL MATCH (s:Summary {id: $id}) RETURN coalesce(s.dirty, 0) AS dirty
