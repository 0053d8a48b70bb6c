// Entity vectors per audience (graph/entity_vectors.py): one node per entity or chapter, model and audience.
CREATE CONSTRAINT entity_vector_id IF NOT EXISTS FOR (n:EntityVector) REQUIRE n.id IS UNIQUE;
CREATE INDEX entity_vector_project IF NOT EXISTS FOR (n:EntityVector) ON (n.project_id, n.model);
