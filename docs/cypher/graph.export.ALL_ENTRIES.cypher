// graph.export.ALL_ENTRIES
MATCH (e:Entry) WHERE e.project_id = $project_id 
RETURN e.id AS entry_id, e.project_id AS project_id, e.body AS text, e.author_id AS author, e.title AS title,
       e.occurred_on AS occurred_on, e.occurred_at AS occurred_at, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, coalesce(e.tags, []) AS tags, e.intimacy AS intimacy,
       e.kind AS kind, e.period_name AS period, e.metadata AS metadata
ORDER BY coalesce(e.occurred_at, ''), coalesce(e.thread_pos, 0), e.id
