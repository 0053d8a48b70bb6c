// graph.summaries.MARK_STALE
UNWIND $ids AS id
MATCH (e:Entry {id: id})
CALL {
  WITH e
  MATCH (s:Summary)-[:FED_BY]->(e)
  RETURN s
  UNION
  WITH e
  MATCH (s:Summary {project_id: e.project_id})
  WHERE (s.scope = 'project' OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: s.period_id}) }) AND (e.intimacy IN ['circle', 'public'] OR (s.base = 'inner' AND e.intimacy = 'intimate')
     OR (s.owner IS NOT NULL AND e.author_id = s.owner))
  RETURN s
}
WITH DISTINCT s
SET s.stale = true, s.dirty = coalesce(s.dirty, 0) + 1
