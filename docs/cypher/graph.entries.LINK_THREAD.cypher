// graph.entries.LINK_THREAD
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
MATCH (prev:Entry {id: row.prev_id})
MERGE (prev)-[:NEXT]->(e)
