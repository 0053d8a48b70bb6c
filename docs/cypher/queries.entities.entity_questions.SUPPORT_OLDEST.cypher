// queries.entities.entity_questions.SUPPORT_OLDEST
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

CALL () {
  MATCH (a:Person) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Place) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Thing) WHERE a.id IN $anchor_ids RETURN a
  UNION MATCH (a:Period) WHERE a.id IN $anchor_ids RETURN a
}
MATCH (e:Entry)-[:MENTIONS|IN_PERIOD]->(a)
WHERE e.project_id = $project_id AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
WITH DISTINCT e
WITH e, COUNT { MATCH (e)-[:MENTIONS|IN_PERIOD]->(b) WHERE b.id IN $boost_ids } AS boost
ORDER BY boost DESC, e.occurred_start, e.id
LIMIT $k
RETURN e.id AS id, boost
