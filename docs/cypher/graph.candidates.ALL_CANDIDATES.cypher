// graph.candidates.ALL_CANDIDATES
MATCH (e:Entry {project_id: $project_id})
WHERE e.spotted_keys IS NOT NULL AND true
UNWIND range(0, size(e.spotted_keys) - 1) AS i
WITH e, e.spotted_kinds[i] AS kind, e.spotted_keys[i] AS key, e.spotted_names[i] AS name, e.spotted_counts[i] AS n

WITH kind, key, name, n, e ORDER BY e.occurred_start DESC, e.id
WITH key, sum(n) AS mentions, count(e) AS entries, collect(e.id)[..$examples] AS examples, min(name) AS name,
     collect([kind, n]) AS kinds
WHERE NOT EXISTS { MATCH (d:Dismissal {project_id: $project_id, key: key}) WHERE d.kind <> 'called' AND true }
RETURN key, name, mentions, entries, examples, kinds
ORDER BY mentions DESC, entries DESC, key
