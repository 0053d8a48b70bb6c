// graph.called.DISMISS_CALLED
MERGE (d:Dismissal {id: $id})
ON CREATE SET d.project_id = $project_id, d.kind = 'called', d.entity_id = $entity_id, d.key = $key, d.name = $name,
              d.intimacy = $intimacy, d.author_id = $author_id, d.created_at = datetime()
