// graph.entity_merge.RECORD
CREATE (g:EntityMerge {id: $id, project_id: $project_id, kind: $kind, from_id: $from_id, from_name: $from_name,
                       from_key: $from_key, into_id: $into_id, into_name: $into_name, intimacy: $intimacy,
                       author_id: $author_id, detached: $detached, created: $created, added: $added,
                       levels: $levels, linked: $linked, created_at: datetime()})
