// graph.candidates.VISIBLE_CANDIDATES
MATCH (e:Entry {project_id: $project_id})
WHERE e.spotted_keys IS NOT NULL AND (
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
UNWIND range(0, size(e.spotted_keys) - 1) AS i
WITH e, e.spotted_kinds[i] AS kind, e.spotted_keys[i] AS key, e.spotted_names[i] AS name, e.spotted_counts[i] AS n

WITH kind, key, name, n, e ORDER BY e.occurred_start DESC, e.id
WITH key, sum(n) AS mentions, count(e) AS entries, collect(e.id)[..$examples] AS examples, min(name) AS name,
     collect([kind, n]) AS kinds
WHERE NOT EXISTS { MATCH (d:Dismissal {project_id: $project_id, key: key}) WHERE d.kind <> 'called' AND (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: d.project_id})
     WHERE d.intimacy IN ['circle', 'public']
        OR (d.intimacy = 'private' AND d.author_id = $viewer_id)
        OR (d.intimacy = 'intimate' AND (d.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND d.intimacy = 'public'
      AND EXISTS { MATCH (:Period {id: $witness_period_id, project_id: d.project_id}) })
) }
RETURN key, name, mentions, entries, examples, kinds
ORDER BY mentions DESC, entries DESC, key
