// Identity of every node kind; MERGE on these ids keeps writes idempotent.
CREATE CONSTRAINT project_id IF NOT EXISTS FOR (n:Project) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT user_id IF NOT EXISTS FOR (n:User) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entry_id IF NOT EXISTS FOR (n:Entry) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT period_id IF NOT EXISTS FOR (n:Period) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT person_id IF NOT EXISTS FOR (n:Person) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT place_id IF NOT EXISTS FOR (n:Place) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT thing_id IF NOT EXISTS FOR (n:Thing) REQUIRE n.id IS UNIQUE;
// Scoping and structured filters.
CREATE INDEX entry_project IF NOT EXISTS FOR (n:Entry) ON (n.project_id);
CREATE INDEX entry_occurred IF NOT EXISTS FOR (n:Entry) ON (n.project_id, n.occurred_start);
CREATE INDEX entry_author IF NOT EXISTS FOR (n:Entry) ON (n.author_id);
CREATE INDEX chunk_entry IF NOT EXISTS FOR (n:Chunk) ON (n.entry_id);
CREATE INDEX chunk_project IF NOT EXISTS FOR (n:Chunk) ON (n.project_id);
CREATE INDEX chunk_embedding_status IF NOT EXISTS FOR (n:Chunk) ON (n.embedding_status);
CREATE INDEX chunk_embedding_hash IF NOT EXISTS FOR (n:Chunk) ON (n.embedding_hash);
CREATE INDEX person_project IF NOT EXISTS FOR (n:Person) ON (n.project_id);
CREATE INDEX place_project IF NOT EXISTS FOR (n:Place) ON (n.project_id);
CREATE INDEX thing_project IF NOT EXISTS FOR (n:Thing) ON (n.project_id);
CREATE INDEX period_project IF NOT EXISTS FOR (n:Period) ON (n.project_id);
