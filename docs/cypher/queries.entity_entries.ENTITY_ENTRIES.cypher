// queries.entity_entries.ENTITY_ENTRIES
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
)) AND ($witness_period_id IS NULL OR m.witness_hidden IS NULL)
WITH DISTINCT e
WHERE $after_id IS NULL
   OR ($after_start IS NULL AND e.occurred_start IS NULL AND e.id < $after_id)
   OR ($after_start IS NOT NULL AND (e.occurred_start IS NULL OR e.occurred_start < $after_start
                                     OR (e.occurred_start = $after_start AND e.id < $after_id)))
WITH e ORDER BY e.occurred_start IS NULL, e.occurred_start DESC, e.id DESC LIMIT $limit
RETURN e.id AS entry_id, e.title AS title, e.occurred_on AS occurred_on, e.occurred_start AS start,
       e.author_id AS author, e.intimacy AS intimacy, left(coalesce(e.body, ''), 240) AS text
ORDER BY e.occurred_start IS NULL, e.occurred_start DESC, e.id DESC
