// ingest.restore.IMPORT_DISMISSAL
MERGE (d:Dismissal {id: $id})
SET d.project_id = $project_id, d.kind = $kind, d.key = $key, d.name = $name, d.intimacy = $audience,
    d.author_id = $author, d.created_at = datetime($created_at), d.entity_id = $entity
