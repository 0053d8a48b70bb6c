// graph.analytics.CO_OCCURRENCE
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

CALL () {
  MATCH (x:Person {id: $entity_id}) RETURN x
  UNION MATCH (x:Place {id: $entity_id}) RETURN x
  UNION MATCH (x:Thing {id: $entity_id}) RETURN x
}
MATCH (e:Entry)-[mx:MENTIONS]->(x)
WHERE e.project_id = $project_id AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
WITH e, mx, (($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)) AS written_in
WHERE CASE WHEN $date_from IS NULL AND $date_to IS NULL THEN true
  WHEN $time = 'event' AND mx.told_starts IS NOT NULL THEN any(i IN range(0, size(coalesce(mx.told_starts, [])) - 1)
  WHERE ($date_from IS NULL OR mx.told_starts[i] >= $date_from) AND ($date_to IS NULL OR mx.told_ends[i] <= $date_to))
  ELSE written_in END
WITH DISTINCT e, written_in
MATCH (e)-[m:MENTIONS]->(y) WHERE y.id <> $entity_id AND CASE WHEN $date_from IS NULL AND $date_to IS NULL THEN true
  WHEN $time = 'event' AND m.told_starts IS NOT NULL THEN any(i IN range(0, size(coalesce(m.told_starts, [])) - 1)
  WHERE ($date_from IS NULL OR m.told_starts[i] >= $date_from) AND ($date_to IS NULL OR m.told_ends[i] <= $date_to))
  ELSE written_in END
WITH y, e, CASE WHEN $time = 'event' THEN m.told_starts END AS told, m
WITH y, e, CASE WHEN told IS NULL THEN e.occurred_start ELSE told[0] END AS first_at,
     CASE WHEN told IS NULL THEN e.occurred_end
          ELSE reduce(hi = m.told_ends[0], d IN m.told_ends | CASE WHEN d > hi THEN d ELSE hi END) END AS last_at
WITH y, count(DISTINCT e) AS together, min(first_at) AS first, max(last_at) AS last
WITH y, together, first, last, $counts[y.id][0] AS n_y, $counts[y.id][1] AS mention_name,
     $counts[$entity_id][0] AS n_x, $total AS total
WHERE $kind IS NULL OR y.kind = $kind
WITH y, mention_name, together, first, last, n_y, CASE $measure
  WHEN 'count' THEN toFloat(together)
  WHEN 'jaccard' THEN round(toFloat(together) / (n_x + n_y - together), 6)
  ELSE round(log(toFloat(total) * together / (toFloat(n_x) * n_y)) / log(2.0), 6) END AS score
ORDER BY score DESC, together DESC, y.id
LIMIT $limit
RETURN y.id AS id, coalesce(
  COLLECT { MATCH (d:Declaration)-[:DECLARES]->(y) WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: d.project_id})
     WHERE d.intimacy IN ['circle', 'public']
        OR (d.intimacy = 'private' AND d.author_id = $viewer_id)
        OR (d.intimacy = 'intimate' AND (d.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND d.intimacy = 'public'
      AND EXISTS { MATCH (:Period {id: $witness_period_id, project_id: d.project_id}) })
)
            WITH d ORDER BY d.created_at, d.id RETURN d.name }[0], mention_name) AS name, y.kind AS kind, together, n_y AS entries, score,
       toString(first) AS first, toString(last) AS last
ORDER BY score DESC, together DESC, name
