// Keyword search over entries: body, title and the names of who and where they mention (with aliases).
// 'standard-folding' folds diacritics, so "Berlin" finds "Berlín" and "lavapies" finds "Lavapiés".
CREATE FULLTEXT INDEX entry_text IF NOT EXISTS
FOR (n:Entry) ON EACH [n.body, n.title, n.names]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS
FOR (n:Person|Place|Thing) ON EACH [n.name, n.aliases_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding', `fulltext.eventually_consistent`: false}};
