// queries.search.channels.DENSE_INDEX
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS c, score
CALL { WITH c MATCH (c)-[:OF]->(e:Entry) RETURN e }
WITH c, score, e WHERE e.project_id IN $project_ids
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
  AND ((($q_from IS NULL OR e.occurred_end >= $q_from) AND ($q_to IS NULL OR e.occurred_start <= $q_to))
       OR any(i IN range(0, size(coalesce(e.told_starts, [])) - 1)
  WHERE ($q_from IS NULL OR e.told_starts[i] >= $q_from) AND ($q_told_to IS NULL OR e.told_ends[i] <= $q_told_to)))
  AND (size($q_entity_ids) = 0 OR EXISTS { MATCH (e)-[qm:MENTIONS]->(x) WHERE x.id IN $q_entity_ids
                                             AND ($witness_period_id IS NULL OR qm.witness_hidden IS NULL) })
  AND (size($q_author_keys) = 0 OR toLower(e.author_id) IN $q_author_keys)
  AND ($q_occ IS NULL OR (e.occurred_start IS NOT NULL
       AND (e.occurred_end > e.occurred_start + duration({days: 120})
            OR any(y IN range(e.occurred_start.year - 1, e.occurred_end.year)
                   WHERE y >= $q_occ_base AND $q_occ[y - $q_occ_base] IS NOT NULL
                     AND e.occurred_end >= $q_occ[y - $q_occ_base][0]
                     AND e.occurred_start <= $q_occ[y - $q_occ_base][1])
            OR any(i IN range(0, size(coalesce(e.told_starts, [])) - 1)
                   WHERE e.told_starts[i].year >= $q_occ_base
                     AND $q_occ[e.told_starts[i].year - $q_occ_base] IS NOT NULL
                     AND e.told_starts[i] >= $q_occ[e.told_starts[i].year - $q_occ_base][0]
                     AND e.told_ends[i] <= $q_occ[e.told_starts[i].year - $q_occ_base][1]))))
WITH e, c, score, vector.similarity.cosine(c[$prop], $vector) AS sim
WITH collect({e: e, c: c.id, sim: sim}) AS rows, min(score) AS cut, max(abs(score - sim)) AS err
UNWIND rows AS r
WITH r, cut, err ORDER BY r.sim DESC
WITH r.e AS e, head(collect(r)) AS best, cut, err
RETURN e.id AS id, best.sim AS score, best.c AS chunk_id, cut, err
ORDER BY score DESC, id LIMIT $limit
