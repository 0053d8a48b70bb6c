// graph.entries.LOAD_RECORDS
UNWIND $ids AS id
MATCH (e:Entry {id: id})
RETURN e.id AS entry_id, e.project_id AS project_id, e.body AS text, e.author_id AS author, e.title AS title,
       e.occurred_on AS occurred_on, e.occurred_at AS occurred_at, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, coalesce(e.tags, []) AS tags, e.intimacy AS intimacy,
       e.kind AS kind, e.period_name AS period, e.metadata AS metadata
