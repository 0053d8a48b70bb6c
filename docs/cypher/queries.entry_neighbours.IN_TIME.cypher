// queries.entry_neighbours.IN_TIME
MATCH (s:Entry {id: $id}) WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: s.project_id})
     WHERE s.intimacy IN ['circle', 'public']
        OR (s.intimacy = 'private' AND s.author_id = $viewer_id)
        OR (s.intimacy = 'intimate' AND (s.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND s.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (s)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
)
WITH s, [CASE WHEN s.occurred_start IS NULL THEN 1 ELSE 0 END, coalesce(s.occurred_start, date('0001-01-01')), s.id] AS at
RETURN
  COLLECT {
    MATCH (e:Entry {project_id: s.project_id})
    WITH e, [CASE WHEN e.occurred_start IS NULL THEN 1 ELSE 0 END, coalesce(e.occurred_start, date('0001-01-01')), e.id] AS key WHERE key < at
    WITH e, key ORDER BY key DESC WHERE (
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
    WITH e LIMIT 1
    RETURN e {.id, .title, occurred_on: toString(e.occurred_start)}
  } AS before,
  COLLECT {
    MATCH (e:Entry {project_id: s.project_id})
    WITH e, [CASE WHEN e.occurred_start IS NULL THEN 1 ELSE 0 END, coalesce(e.occurred_start, date('0001-01-01')), e.id] AS key WHERE key > at
    WITH e, key ORDER BY key WHERE (
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
    WITH e LIMIT 1
    RETURN e {.id, .title, occurred_on: toString(e.occurred_start)}
  } AS after
