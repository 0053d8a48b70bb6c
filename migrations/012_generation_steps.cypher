// What each bump of a search generation changed (graph/generations.py): a kept view (queries/visible_view.py) lists
// again only the entries the steps since its own generations name, read by project, generation key and number.
CREATE INDEX generation_step IF NOT EXISTS FOR (n:GenerationStep) ON (n.project_id, n.key, n.generation);
