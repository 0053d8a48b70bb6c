// graph.analytics.IMPORTANCE
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
WITH e, COLLECT { MATCH (e)-[:IN_PERIOD]->(per:Period) WHERE per.automatic IS NULL RETURN per } AS chapters
MATCH (e)-[m:MENTIONS]->(x) WHERE $kind IS NULL OR x.kind = $kind
UNWIND CASE WHEN chapters = [] THEN [null] ELSE chapters END AS per
WITH x, count(DISTINCT e) AS entries, sum(m.count) AS mentions, count(DISTINCT per) AS periods,
     count(DISTINCT e.occurred_start.year) AS years, min(m.name) AS mention_name
WITH x, mention_name, entries, mentions, periods, years, entries * (1 + periods + years) AS importance
ORDER BY importance DESC, x.id
LIMIT $limit
RETURN x.id AS id, coalesce(
  COLLECT { MATCH (d:Declaration)-[:DECLARES]->(x) WHERE (
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
            WITH d ORDER BY d.created_at, d.id RETURN d.name }[0], mention_name) AS name, x.kind AS kind, entries, mentions, periods, years,
       importance
ORDER BY importance DESC, name
LIMIT $limit
