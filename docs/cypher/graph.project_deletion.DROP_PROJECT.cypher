// graph.project_deletion.DROP_PROJECT
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (u:User)-[m:MEMBER_OF]->(p)
WITH p, collect(m) AS memberships
FOREACH (m IN memberships | DELETE m)
DETACH DELETE p
RETURN size(memberships) AS members
