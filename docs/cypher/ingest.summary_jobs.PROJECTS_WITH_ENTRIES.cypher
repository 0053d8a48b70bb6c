// ingest.summary_jobs.PROJECTS_WITH_ENTRIES
MATCH (p:Project) WHERE EXISTS { MATCH (:Entry {project_id: p.id}) } RETURN p.id AS id
