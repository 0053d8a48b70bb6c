// graph.summaries.SERVE_MANY
UNWIND $ids AS id MATCH (s:Summary {id: id})
WHERE NOT EXISTS { MATCH (s)-[:FED_BY]->(e:Entry) WHERE NOT (
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
) }
RETURN s {.id, .scope, .level, .period_id, .audience, .text, .producer, .fallback_reason, .stale, .entry_count,
          .words, cites: coalesce(s.cites, []), ranks: coalesce(s.ranks, []), dates: coalesce(s.dates, []),
          form: coalesce(s.form, 1), generated_at: toString(s.generated_at)}
       AS summary
