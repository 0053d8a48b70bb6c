// graph.summaries.IN_WITNESS_CHAPTER
RETURN EXISTS { MATCH (:Period {id: $period_id})-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) } AS inside
