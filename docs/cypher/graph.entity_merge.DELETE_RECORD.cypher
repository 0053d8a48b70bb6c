// graph.entity_merge.DELETE_RECORD
MATCH (g:EntityMerge {id: $id}) DELETE g
