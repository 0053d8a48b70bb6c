// graph.forgetting.LINKED_MANY
UNWIND $ids AS eid
MATCH (e:Entry {id: eid})
WITH collect(e) AS es
RETURN COLLECT { UNWIND es AS e MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entities,
       COLLECT { UNWIND es AS e MATCH (e)-[:IN_PERIOD]->(p:Period) RETURN DISTINCT p.id } AS periods
