// graph.members.AUTHORS_WITHOUT_MEMBERSHIP
MATCH (u:User)-[:WROTE]->(e:Entry) WHERE e.project_id IN $project_ids
  AND NOT EXISTS { MATCH (u)-[:MEMBER_OF]->(:Project {id: e.project_id}) }
RETURN e.project_id AS project_id, collect(DISTINCT u.id)[0..20] AS users
ORDER BY project_id
