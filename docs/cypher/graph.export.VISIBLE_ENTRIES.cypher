// graph.export.VISIBLE_ENTRIES
MATCH (e:Entry) WHERE e.project_id = $project_id AND (
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
) AND ($own_author IS NULL OR e.author_id = $own_author)
RETURN e.id AS entry_id, e.project_id AS project_id, e.body AS text, e.author_id AS author, e.title AS title,
       e.occurred_on AS occurred_on, e.occurred_at AS occurred_at, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, coalesce(e.tags, []) AS tags, e.intimacy AS intimacy,
       e.kind AS kind, e.period_name AS period, e.metadata AS metadata
ORDER BY coalesce(e.occurred_at, ''), coalesce(e.thread_pos, 0), e.id
