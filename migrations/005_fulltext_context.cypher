// Keyword search also reads the entry's lent context (the preceding turn of its conversation), so a reply is
// found by the words of the question it answers. Recreated because an index's properties cannot be altered.
DROP INDEX entry_text IF EXISTS;
CREATE FULLTEXT INDEX entry_text_v2 IF NOT EXISTS
FOR (n:Entry) ON EACH [n.body, n.title, n.names, n.context]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
