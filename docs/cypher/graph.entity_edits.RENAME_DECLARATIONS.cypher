// graph.entity_edits.RENAME_DECLARATIONS
UNWIND $ids AS did
MATCH (d:Declaration {id: did})
WITH d, d.name AS old, coalesce($name, d.name) AS new
WITH d, new, CASE WHEN $aliases IS NOT NULL THEN $aliases
                  WHEN old <> new AND NOT old IN d.aliases THEN d.aliases + old ELSE d.aliases END AS aliases
SET d.name = new, d.aliases = [a IN aliases WHERE a <> new], d.updated_at = datetime()
