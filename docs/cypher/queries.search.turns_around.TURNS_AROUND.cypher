// queries.search.turns_around.TURNS_AROUND
UNWIND $ids AS id
MATCH (s:Entry {id: id}) WHERE s.thread_id IS NOT NULL AND (
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

CALL (s) {
  MATCH (e:Entry)
  WHERE e.thread_id = s.thread_id
    AND e.thread_pos >= s.thread_pos AND e.thread_pos <= s.thread_pos + $window
    AND (e.thread_pos > s.thread_pos OR e.id > s.id)
  WITH e ORDER BY e.thread_pos ASC, e.id ASC
  WHERE e.project_id IN $project_ids
  AND ($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)
  AND ($intimacy_levels IS NULL OR e.intimacy IN $intimacy_levels)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($tags IS NULL OR any(t IN e.tags WHERE t IN $tags))
  AND ($period_id IS NULL
       OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) })
  AND ($person_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Person) WHERE x.id IN $person_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND ($place_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Place) WHERE x.id IN $place_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND (
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
  WITH e LIMIT $after_reach
  RETURN collect(e) AS after_near
}
CALL (s, after_near) {
  UNWIND CASE WHEN size(after_near) < $after_reach THEN [s] ELSE [] END AS t
  MATCH (e:Entry)
  WHERE e.thread_id = t.thread_id AND e.thread_pos > t.thread_pos + $window
  WITH e ORDER BY e.thread_pos ASC, e.id ASC
  WHERE e.project_id IN $project_ids
  AND ($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)
  AND ($intimacy_levels IS NULL OR e.intimacy IN $intimacy_levels)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($tags IS NULL OR any(t IN e.tags WHERE t IN $tags))
  AND ($period_id IS NULL
       OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) })
  AND ($person_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Person) WHERE x.id IN $person_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND ($place_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Place) WHERE x.id IN $place_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND (
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
  WITH e LIMIT $after_reach
  RETURN collect(e) AS after_far
}
CALL (s, after_near, after_far) {
  UNWIND (after_near + after_far)[0..$after_reach] AS e
  MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
  RETURN collect(vector.similarity.cosine(c[$prop], $alike)) AS after
}

CALL (s) {
  MATCH (e:Entry)
  WHERE e.thread_id = s.thread_id
    AND e.thread_pos <= s.thread_pos AND e.thread_pos >= s.thread_pos - $window
    AND (e.thread_pos < s.thread_pos OR e.id < s.id)
  WITH e ORDER BY e.thread_pos DESC, e.id DESC
  WHERE e.project_id IN $project_ids
  AND ($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)
  AND ($intimacy_levels IS NULL OR e.intimacy IN $intimacy_levels)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($tags IS NULL OR any(t IN e.tags WHERE t IN $tags))
  AND ($period_id IS NULL
       OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) })
  AND ($person_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Person) WHERE x.id IN $person_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND ($place_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Place) WHERE x.id IN $place_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND (
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
  WITH e LIMIT $before_reach
  RETURN collect(e) AS before_near
}
CALL (s, before_near) {
  UNWIND CASE WHEN size(before_near) < $before_reach THEN [s] ELSE [] END AS t
  MATCH (e:Entry)
  WHERE e.thread_id = t.thread_id AND e.thread_pos < t.thread_pos - $window
  WITH e ORDER BY e.thread_pos DESC, e.id DESC
  WHERE e.project_id IN $project_ids
  AND ($date_from IS NULL OR e.occurred_end >= $date_from)
  AND ($date_to IS NULL OR e.occurred_start <= $date_to)
  AND ($intimacy_levels IS NULL OR e.intimacy IN $intimacy_levels)
  AND ($author_ids IS NULL OR e.author_id IN $author_ids)
  AND ($kinds IS NULL OR e.kind IN $kinds)
  AND ($tags IS NULL OR any(t IN e.tags WHERE t IN $tags))
  AND ($period_id IS NULL
       OR EXISTS { MATCH (e)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $period_id}) })
  AND ($person_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Person) WHERE x.id IN $person_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND ($place_ids IS NULL OR EXISTS { MATCH (e)-[fm:MENTIONS]->(x:Place) WHERE x.id IN $place_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) })
  AND (
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
  WITH e LIMIT $before_reach
  RETURN collect(e) AS before_far
}
CALL (s, before_near, before_far) {
  UNWIND (before_near + before_far)[0..$before_reach] AS e
  MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
  RETURN collect(vector.similarity.cosine(c[$prop], $alike)) AS before
}
RETURN s.id AS id, after, before
