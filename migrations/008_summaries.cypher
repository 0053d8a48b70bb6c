// Summaries (level 1 per period, level 2 per project), one node per audience variant: looked up by id, listed and
// marked stale by project.
CREATE CONSTRAINT summary_id IF NOT EXISTS FOR (n:Summary) REQUIRE n.id IS UNIQUE;
CREATE INDEX summary_project IF NOT EXISTS FOR (n:Summary) ON (n.project_id);
