// graph.timelines.TIMELINE_MONTHS
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

CALL () {
  MATCH (x:Person {id: $entity_id}) RETURN x
  UNION MATCH (x:Place {id: $entity_id}) RETURN x
  UNION MATCH (x:Thing {id: $entity_id}) RETURN x
}
MATCH (e:Entry)-[m:MENTIONS]->(x)
WHERE e.project_id = $project_id AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
UNWIND CASE WHEN $time = 'event' AND m.told_starts IS NOT NULL
  THEN [i IN range(0, size(m.told_starts) - 1) | [m.told_starts[i], m.told_ends[i]]]
  WHEN e.occurred_start IS NULL THEN [] ELSE [[e.occurred_start, e.occurred_end]] END AS span
WITH e, m, span, (span[0].year = span[1].year AND span[0].month = span[1].month) AS placed
WITH DISTINCT e, m, CASE WHEN placed THEN span[0].year END AS year, CASE WHEN placed THEN span[0].month END AS month
RETURN year, month, count(e) AS entries, sum(m.count) AS mentions
ORDER BY year, month
