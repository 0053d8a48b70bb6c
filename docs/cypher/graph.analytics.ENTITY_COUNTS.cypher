// graph.analytics.ENTITY_COUNTS
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

MATCH (e:Entry) WHERE e.project_id = $project_id AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
WITH e, (($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)) AS written_in
WITH collect([e, written_in]) AS visible,
     count(CASE WHEN (written_in OR ($time = 'event' AND any(i IN range(0, size(coalesce(e.told_starts, [])) - 1)
  WHERE ($date_from IS NULL OR e.told_starts[i] >= $date_from) AND ($date_to IS NULL OR e.told_ends[i] <= $date_to)))) THEN 1 END) AS total
UNWIND visible AS seen
WITH total, seen[0] AS e, seen[1] AS written_in
OPTIONAL MATCH (e)-[m:MENTIONS]->(y)
WITH total, y, min(m.name) AS name,
     count(DISTINCT CASE WHEN CASE WHEN $date_from IS NULL AND $date_to IS NULL THEN true
  WHEN $time = 'event' AND m.told_starts IS NOT NULL THEN any(i IN range(0, size(coalesce(m.told_starts, [])) - 1)
  WHERE ($date_from IS NULL OR m.told_starts[i] >= $date_from) AND ($date_to IS NULL OR m.told_ends[i] <= $date_to))
  ELSE written_in END THEN e END) AS entries
RETURN total, collect(CASE WHEN y IS NOT NULL THEN [y.id, entries, name] END) AS entities
