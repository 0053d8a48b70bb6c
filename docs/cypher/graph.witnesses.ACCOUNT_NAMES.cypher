// graph.witnesses.ACCOUNT_NAMES
UNWIND $entry_ids AS entry_id
MATCH (e:Entry {id: entry_id})
WHERE e.kind = 'witness' AND e.author_id STARTS WITH $witness_prefix AND (
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
MATCH (g:WitnessGrant {id: substring(e.author_id, size($witness_prefix)), project_id: e.project_id})
WHERE g.label IS NOT NULL
RETURN e.id AS entry_id, g.label AS label
