// ingest.threads.THREAD_TURNS
UNWIND $tids AS tid
MATCH (e:Entry {thread_id: tid})
RETURN tid, e.id AS id, e.thread_pos AS pos, e.author_id AS author, e.body AS text, e.intimacy AS intimacy,
       e.period_name AS period, e.context AS context, e.prev_id AS prev_id
