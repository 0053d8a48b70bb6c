// queries.entry_histogram.ENTRY_HISTOGRAM
MATCH (e:Entry {project_id: $project_id})
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
WITH e.occurred_start AS start, coalesce(e.occurred_end, e.occurred_start) AS end
WITH start, duration.inDays(start, end).days AS days
WITH start, CASE WHEN days < 360 THEN start + duration({days: days / 2}) END AS middle
WITH coalesce(middle.year, start.year) AS year, middle.month AS month
RETURN year, month, count(*) AS entries
ORDER BY year, month
