// graph.entries.ENTRY_THREAD
MATCH (e:Entry {id: $id}) RETURN e.thread_id AS thread_id
