// graph.forgetting.LINKED
MATCH (e:Entry {id: $id})
RETURN COLLECT { MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entities,
       COLLECT { MATCH (e)-[:IN_PERIOD]->(p:Period) RETURN DISTINCT p.id } AS periods
