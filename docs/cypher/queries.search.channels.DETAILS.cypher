// queries.search.channels.DETAILS
UNWIND $ids AS id
MATCH (e:Entry {id: id})
WITH e, e.intimacy AS level, e.author_id AS author
WHERE (
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
) AND e.intimacy = level AND coalesce(e.author_id, '') = coalesce(author, '')
OPTIONAL MATCH (e)-[xm:MENTIONS]->(x) WHERE ($witness_period_id IS NULL OR xm.witness_hidden IS NULL)
WITH e, level, author, collect(DISTINCT {kind: x.kind, name: xm.name}) AS xs
OPTIONAL MATCH (e)-[:IN_PERIOD]->(per:Period)
WITH e, level, author, xs, collect(DISTINCT per) AS pers
OPTIONAL MATCH (c:Chunk {id: $chunks[e.id]})-[:OF]->(e)
WITH e, level, author, xs, pers, c, COLLECT {
  MATCH (q:Entry {thread_id: e.thread_id})
  WHERE (q.thread_pos < e.thread_pos OR (q.thread_pos = e.thread_pos AND q.id < e.id))
  WITH q ORDER BY q.thread_pos DESC, q.id DESC
  WITH q, q.intimacy AS q_level, q.author_id AS q_author
  WHERE (
  ($viewer_id IS NOT NULL AND EXISTS {
     MATCH (:User {id: $viewer_id})-[vis_membership:MEMBER_OF]->(:Project {id: q.project_id})
     WHERE q.intimacy IN ['circle', 'public']
        OR (q.intimacy = 'private' AND q.author_id = $viewer_id)
        OR (q.intimacy = 'intimate' AND (q.author_id = $viewer_id
                                            OR vis_membership.role IN ['owner', 'coauthor']))
  })
  OR ($witness_period_id IS NOT NULL AND q.intimacy IN ['circle', 'public'] AND EXISTS {
     MATCH (q)-[:IN_PERIOD]->(:Period)-[:PART_OF*0..5]->(:Period {id: $witness_period_id})
  })
) AND q.intimacy = q_level AND coalesce(q.author_id, '') = coalesce(q_author, '')
  WITH q, q_author LIMIT $reply_reach
  RETURN {id: q.id, author_id: q_author, text: q.body} AS turn
} AS before
RETURN e.id AS id, e.project_id AS project_id, e.title AS title, e.body AS body, author AS author_id,
       level AS intimacy, e.kind AS kind, toString(e.occurred_start) AS occurred_start,
       toString(e.occurred_end) AS occurred_end,
       e.occurred_precision AS occurred_precision, e.tags AS tags,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons,
       [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       [x IN xs WHERE x.kind = 'thing' | x.name] AS things,
       [p IN pers | {id: p.id, name: coalesce(e.period_name, e.auto_period_name, substring(p.id, size(p.project_id) + size('/period/')))}] AS periods,
       [i IN range(0, size(coalesce(e.told_starts, [])) - 1)
        | {start: toString(e.told_starts[i]), end: toString(e.told_ends[i])}] AS told,
       CASE WHEN c IS NULL THEN null ELSE {id: c.id, ord: c.ord, text: c.text} END AS chunk,
       before
