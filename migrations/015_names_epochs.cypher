// A project's names epoch (graph/relink_epochs.py): one node per project, bumped by every entity edit and held by
// every write of a re-linking job; MERGE on the project id keeps it one.
CREATE CONSTRAINT names_epoch_project IF NOT EXISTS FOR (n:NamesEpoch) REQUIRE n.project_id IS UNIQUE;
