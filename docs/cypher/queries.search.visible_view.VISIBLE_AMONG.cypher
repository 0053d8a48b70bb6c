// queries.search.visible_view.VISIBLE_AMONG
WITH COLLECT { MATCH (:User {id: $viewer_id})-[vis_m:MEMBER_OF]->(:Project {id: $project_id})
               RETURN coalesce(vis_m.role, '') } AS vis_roles,
     COLLECT { MATCH (vis_p:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id}) RETURN vis_p } AS vis_periods

UNWIND $among AS among_id
MATCH (e:Entry {id: among_id}) WHERE e.project_id IN $project_ids
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
WITH e ORDER BY e.id
WITH collect([e.id,
                duration.inDays(date('0001-01-01'), e.occurred_start).days + 1,
                duration.inDays(date('0001-01-01'), e.occurred_end).days + 1,
                toLower(e.author_id),
                COLLECT { MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
                          RETURN [c.id, coalesce(c.embedding_hash, ''), coalesce(c[$stores_key], 0)] ORDER BY c.id },
                COLLECT { MATCH (e)-[m:MENTIONS]->(x) RETURN [x.id, coalesce(m.count, 0)] },
                [i IN range(0, size(coalesce(e.told_starts, [])) - 1) |
                 [duration.inDays(date('0001-01-01'), e.told_starts[i]).days + 1,
                  duration.inDays(date('0001-01-01'), e.told_ends[i]).days + 1]],
                e.thread_id, e.thread_pos]) AS listed
UNWIND range(0, size(listed) - 1, $block) AS at
RETURN listed[at..at + $block] AS entries ORDER BY at
