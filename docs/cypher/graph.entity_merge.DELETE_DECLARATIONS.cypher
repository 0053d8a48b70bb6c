// graph.entity_merge.DELETE_DECLARATIONS
UNWIND $ids AS did MATCH (d:Declaration {id: did}) DETACH DELETE d
