// queries.search.channels.FULLTEXT_IN_PROJECT
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

CALL db.index.fulltext.queryNodes('entry_text_v2', $lucene) YIELD node AS e, score
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
  AND (e.project_id = $project_id AND (
  ($viewer_id IS NOT NULL AND size(vis_roles) > 0 AND (
     e.intimacy IN ['circle', 'public']
     OR (e.intimacy = 'private' AND e.author_id = $viewer_id)
     OR (e.intimacy = 'intimate' AND (e.author_id = $viewer_id
                                         OR any(vis_role IN vis_roles WHERE vis_role IN ['owner', 'coauthor'])))))
  OR ($witness_period_id IS NOT NULL AND e.intimacy IN ['circle', 'public']
      AND any(vis_chapter IN vis_periods WHERE EXISTS { MATCH (e)-[:IN_PERIOD]->(vis_chapter) }))
))
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
  AND ($witness_period_id IS NULL OR e.w_ft_terms IS NULL
       OR any(t IN $terms WHERE e.w_ft_terms CONTAINS ' ' + t + ' '))
WITH e, score LIMIT $pool
WITH e, CASE WHEN $witness_period_id IS NULL THEN e.ft_terms ELSE coalesce(e.w_ft_terms, e.ft_terms) END AS ft, CASE WHEN $witness_period_id IS NULL THEN e.ft_len ELSE coalesce(e.w_ft_len, e.ft_len) END AS ft_len
RETURN e.id AS id, ft_len AS length,
       [t IN $terms | (size(ft) - size(replace(ft, ' ' + t + ' ', ''))) / (size(t) + 2)] AS tf,
       CASE WHEN ft IS NULL THEN left(coalesce(e.title, '') + ' ' + coalesce(e.body, '') + ' ' + coalesce((CASE WHEN $witness_period_id IS NULL THEN e.names ELSE coalesce(e.w_names, e.names) END), '') + ' ' + coalesce(e.context, ''), $chars) END AS text
