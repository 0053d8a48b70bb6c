// graph.witnesses.CREATE_GRANT
MATCH (per:Period {id: $period_id, project_id: $project_id}) WHERE per.automatic IS NULL
CALL (per) {
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
  WITH e, CASE WHEN p = per THEN coalesce(e.period_name, e.auto_period_name, substring(p.id, size(p.project_id) + size('/period/'))) END AS spelling
  RETURN count(e) AS seen, min(CASE WHEN e.intimacy IN ['circle', 'public'] THEN spelling END) AS shared
}
WITH per, seen, shared WHERE seen > 0
CREATE (g:WitnessGrant {id: $id, project_id: $project_id, period_id: $period_id,
                        period_name: coalesce(shared, $typed, substring(per.id, size(per.project_id) + size('/period/'))), created_by: $created_by, label: $label,
                        created_at: datetime(), expires_at: datetime($expires_at), revoked: false})
CREATE (g)-[:FOR]->(per)
RETURN g.id AS id
