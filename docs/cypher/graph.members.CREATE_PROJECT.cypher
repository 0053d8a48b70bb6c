// graph.members.CREATE_PROJECT
CREATE (p:Project {id: $project_id, name: $name, hemisphere: $hemisphere, created_at: datetime()})
MERGE (u:User {id: $owner})
ON CREATE SET u.name = $owner, u.created_at = datetime()
CREATE (u)-[:MEMBER_OF {role: 'owner', updated_at: datetime()}]->(p)
RETURN p.id AS project_id, p.name AS name, p.hemisphere AS hemisphere
