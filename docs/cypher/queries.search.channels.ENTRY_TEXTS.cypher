// queries.search.channels.ENTRY_TEXTS
UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN id, coalesce(e.title, '') + ' ' + coalesce(e.body, '') AS text
