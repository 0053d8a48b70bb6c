// One marker that a purge is due (graph/forgetting.py, graph/purge.py): MERGE on its id keeps it one.
CREATE CONSTRAINT purge_due_id IF NOT EXISTS FOR (m:PurgeDue) REQUIRE m.id IS UNIQUE;
