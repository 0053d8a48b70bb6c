// graph.summaries.VISIBLE_PERIODS
MATCH (per:Period {project_id: $project_id})
CALL {
  WITH per
  MATCH (e:Entry)-[:IN_PERIOD]->(p:Period)-[:PART_OF*0..5]->(per)
  WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: e.project_id})
     WHERE e.intimacy IN ['circle', 'public']
        OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
        OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
)
  RETURN count(DISTINCT e) AS n, toString(min(e.occurred_start)) AS start,
         toString(max(coalesce(e.occurred_end, e.occurred_start))) AS end,
         min(CASE WHEN p = per THEN coalesce(e.period_name, e.auto_period_name, substring(p.id, size(p.project_id) + size('/period/'))) END) AS name, collect(DISTINCT e) AS seen
}
WITH per, n, start, end, name, seen WHERE n > 0
CALL {
  WITH seen
  UNWIND seen AS e
  MATCH (e)-[m:MENTIONS]->(x) WHERE x.kind IN ['person', 'place'] AND ($witness_period_id IS NULL OR m.witness_hidden IS NULL)
  WITH x, count(DISTINCT e) AS told, min(m.name) AS mention_name
  ORDER BY told DESC, mention_name
  WITH x, coalesce(
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
            WITH d ORDER BY d.created_at, d.id RETURN d.name }[0], mention_name) AS shown
  RETURN collect(CASE WHEN x.kind = 'person' THEN shown END)[..$most] AS people,
         collect(CASE WHEN x.kind = 'place' THEN shown END)[..$most] AS places
}
RETURN per.id AS id, coalesce(name, per.id) AS name, start, end, n AS entries, per.automatic IS NOT NULL AS automatic,
       people, places
ORDER BY start, name
