// Review records of the entity graph (graph/candidates.py, graph/entity_merge.py): rejections and merges are looked
// up by id and by project + key on every candidate listing and unmerge.
CREATE CONSTRAINT dismissal_id IF NOT EXISTS FOR (n:Dismissal) REQUIRE n.id IS UNIQUE;
CREATE INDEX dismissal_project_key IF NOT EXISTS FOR (n:Dismissal) ON (n.project_id, n.key);
CREATE CONSTRAINT entity_merge_id IF NOT EXISTS FOR (n:EntityMerge) REQUIRE n.id IS UNIQUE;
CREATE INDEX entity_merge_project_key IF NOT EXISTS FOR (n:EntityMerge) ON (n.project_id, n.from_key);
