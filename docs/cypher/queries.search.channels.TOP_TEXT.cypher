// queries.search.channels.TOP_TEXT
MATCH (e:Entry {id: $id}) RETURN coalesce(e.title, '') + ' ' + e.body AS text
