// queries.search.channels.SCOPE_CHUNKS
MATCH (e:Entry) WHERE e.project_id IN $project_ids
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
RETURN sum(COUNT { MATCH (c:Chunk)-[:OF]->(e) }) AS n, count(e) AS visible
