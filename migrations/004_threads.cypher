// Conversation threads: entries of a project sharing one `occurred_at`, ordered by turn, linked by [:NEXT].
CREATE INDEX entry_thread IF NOT EXISTS FOR (n:Entry) ON (n.thread_id, n.thread_pos);
