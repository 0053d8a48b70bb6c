// Witness grants: link tokens that open one chapter to an outside person; revocable, with expiry.
CREATE CONSTRAINT witness_grant_id IF NOT EXISTS FOR (n:WitnessGrant) REQUIRE n.id IS UNIQUE;
CREATE INDEX witness_grant_project IF NOT EXISTS FOR (n:WitnessGrant) ON (n.project_id);
