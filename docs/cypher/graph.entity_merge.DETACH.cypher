// graph.entity_merge.DETACH
UNWIND $ids AS did
MATCH (d:Declaration {id: did})-[r:DECLARES]->(:Person|Place|Thing {id: $from_id})
DELETE r
SET d.merged_into = $into_id
