// queries.album.ON_THIS_DAY
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

MATCH (e:Entry {project_id: $project_id})
WHERE e.occurred_start IS NOT NULL AND e.occurred_start = e.occurred_end AND e.occurred_start.year < $year
  AND e.occurred_start.month * 100 + e.occurred_start.day IN $days
  AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
WITH e ORDER BY e.occurred_start DESC, e.id LIMIT $limit

RETURN e.id AS entry_id, e.title AS title, left(coalesce(e.body, ''), 300) AS text,
       e.author_id AS author_id, e.kind = 'witness' AS by_witness, e.occurred_on AS occurred_on,
       toString(e.occurred_start) AS start, toString(e.occurred_end) AS end,
       CASE WHEN e.kind = 'witness' AND e.author_id STARTS WITH $witness_prefix
            THEN head(COLLECT { MATCH (g:WitnessGrant {id: substring(e.author_id, size($witness_prefix)),
                                                         project_id: e.project_id})
                                 RETURN g.label }) END AS witness_name

ORDER BY e.occurred_start DESC, e.id
