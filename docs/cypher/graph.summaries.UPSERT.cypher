// graph.summaries.UPSERT
MERGE (s:Summary {id: $id})
WITH s, coalesce(s.dirty, 0) AS dirty_now
SET s += $props, s.generated_at = datetime()
WITH s, dirty_now
OPTIONAL MATCH (s)-[old:FED_BY|SUMMARISES]->()
DELETE old
WITH DISTINCT s, dirty_now
CALL {
  WITH s
  OPTIONAL MATCH (per:Period {id: $period_id})
  OPTIONAL MATCH (p:Project {id: $project_id})
  WITH s, CASE WHEN $period_id IS NULL THEN p ELSE per END AS target
  FOREACH (_ IN CASE WHEN target IS NULL THEN [] ELSE [1] END | MERGE (s)-[:SUMMARISES]->(target))
}
CALL {
  WITH s
  UNWIND $entry_ids AS eid
  MATCH (e:Entry {id: eid})
  MERGE (s)-[:FED_BY]->(e)
  RETURN count(*) AS fed
}
SET s.stale = dirty_now <> $dirty OR fed < size($entry_ids)
RETURN s.stale AS stale
