// graph.entities.LIST_VISIBLE_ENTITIES_AMONG
MATCH (n:Person|Place|Thing) WHERE n.id IN $entity_ids AND n.project_id IN $project_ids
WITH n, coalesce(
  COLLECT { MATCH (d:Declaration)-[:DECLARES]->(n) WHERE (
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
            WITH d ORDER BY d.created_at, d.id RETURN d.name }[0],
  COLLECT { MATCH (dn_e:Entry)-[dn_m:MENTIONS]->(n) WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: dn_e.project_id})
     WHERE dn_e.intimacy IN ['circle', 'public']
        OR (dn_e.intimacy = 'private' AND dn_e.author_id = $viewer_id)
        OR (dn_e.intimacy = 'intimate' AND (dn_e.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND dn_e.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (dn_e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
) AND ($witness_period_id IS NULL OR dn_m.witness_hidden IS NULL)
            RETURN dn_m.name AS dn_name ORDER BY dn_name LIMIT 1 }[0]) AS name
WHERE name IS NOT NULL
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, name,
       COLLECT { MATCH (d:Declaration)-[:DECLARES]->(n) WHERE (
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
                 WITH d ORDER BY d.created_at, d.id UNWIND d.aliases AS a RETURN a } AS aliases,
       COLLECT { MATCH (ce:Entry)-[cm:MENTIONS]->(n)
            WHERE (cm.introduced IS NOT NULL OR cm.addressed IS NOT NULL) AND (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: ce.project_id})
     WHERE ce.intimacy IN ['circle', 'public']
        OR (ce.intimacy = 'private' AND ce.author_id = $viewer_id)
        OR (ce.intimacy = 'intimate' AND (ce.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND ce.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (ce)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
) AND ($witness_period_id IS NULL OR cm.witness_hidden IS NULL)
            UNWIND coalesce(cm.introduced, []) + coalesce(cm.introduced, []) + coalesce(cm.addressed, []) AS called
            WITH called, count(*) AS weight WHERE weight >= 2 AND NOT EXISTS {
              MATCH (cd:Dismissal {project_id: n.project_id, kind: 'called', entity_id: n.id, name: called})
              WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: cd.project_id})
     WHERE cd.intimacy IN ['circle', 'public']
        OR (cd.intimacy = 'private' AND cd.author_id = $viewer_id)
        OR (cd.intimacy = 'intimate' AND (cd.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND cd.intimacy = 'public'
      AND EXISTS { MATCH (:Period {id: $witness_period_id, project_id: cd.project_id}) })
) }
            RETURN called ORDER BY called } AS called
ORDER BY n.id
