// An entity is known to a viewer only through sources they may see: the entries naming it (each mention keeps the
// name its writer linked) and declarations made by hand, each with an audience.
CREATE CONSTRAINT declaration_id IF NOT EXISTS FOR (n:Declaration) REQUIRE n.id IS UNIQUE;
CREATE INDEX declaration_project IF NOT EXISTS FOR (n:Declaration) ON (n.project_id);
MATCH (:Entry)-[m:MENTIONS]->(x) WHERE m.name IS NULL SET m.name = x.name;
// Entities added by hand before declarations existed (those with aliases, or named by no entry) were shown to every
// member: they become circle declarations, which is what every member saw.
MATCH (n:Person|Place|Thing)
WHERE size(coalesce(n.aliases, [])) > 0 OR NOT EXISTS { MATCH (:Entry)-[:MENTIONS]->(n) }
MERGE (d:Declaration {id: 'migrated:' + n.id})
ON CREATE SET d.project_id = n.project_id, d.entity_id = n.id, d.kind = n.kind, d.name = n.name,
              d.aliases = coalesce(n.aliases, []), d.intimacy = 'circle', d.author_id = null, d.created_at = datetime()
MERGE (d)-[:DECLARES]->(n);
