// queries.entry_neighbours.IN_THREAD
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
RETURN s.thread_id IS NOT NULL AS threaded,
  COLLECT {
    MATCH (e:Entry {thread_id: s.thread_id})
    WHERE (e.thread_pos < s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id < s.id)) AND (
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
    WITH e ORDER BY e.thread_pos DESC, e.id DESC LIMIT 1
    RETURN e {.id, .title, occurred_on: toString(e.occurred_start)}
  } AS before,
  COLLECT {
    MATCH (e:Entry {thread_id: s.thread_id})
    WHERE (e.thread_pos > s.thread_pos OR (e.thread_pos = s.thread_pos AND e.id > s.id)) AND (
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
    WITH e ORDER BY e.thread_pos, e.id LIMIT 1
    RETURN e {.id, .title, occurred_on: toString(e.occurred_start)}
  } AS after
