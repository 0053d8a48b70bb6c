// Entity-vector lookups (queries/similar.py): a viewer's variants are read by audience (shared, inner) and by their
// own user id instead of filtering every variant of the project, and "similar to X" finds X's variants by entity id.
CREATE INDEX entity_vector_entity IF NOT EXISTS FOR (n:EntityVector) ON (n.entity_id);
CREATE INDEX entity_vector_audience IF NOT EXISTS FOR (n:EntityVector) ON (n.project_id, n.model, n.audience);
CREATE INDEX entity_vector_user IF NOT EXISTS FOR (n:EntityVector) ON (n.project_id, n.model, n.user_id);
