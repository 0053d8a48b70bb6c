// graph.timelines.CHANGES
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
WITH collect(e) AS visible, max(e.occurred_start) AS story_end
UNWIND visible AS e
MATCH (e)-[m:MENTIONS]->(x) WHERE $kind IS NULL OR x.kind = $kind
WITH story_end, x, min(m.name) AS mention_name, min(e.occurred_start) AS first, max(e.occurred_start) AS last,
     count(DISTINCT CASE WHEN e.occurred_start IS NOT NULL THEN e END) AS entries,
     count(DISTINCT CASE WHEN e.occurred_start IS NOT NULL AND (($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)) THEN e END) AS in_period
WHERE entries > 0
WITH story_end, x, mention_name, entries, first, last, in_period,
     ($date_from IS NULL OR first >= $date_from) AND ($date_to IS NULL OR first <= $date_to) AS appeared,
     entries >= $min_entries AND ($date_from IS NULL OR last >= $date_from) AND ($date_to IS NULL OR last <= $date_to)
       AND duration.inDays(last, story_end).days >= $factor * $min_gap_days AS may_have_gone
WHERE appeared OR may_have_gone
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
            WITH d ORDER BY d.created_at, d.id RETURN d.name }[0], mention_name) AS name, x.kind AS kind, entries, in_period, first, last,
       story_end, appeared
