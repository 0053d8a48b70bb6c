// queries.search.ranker.CANDIDATE_FACTS
UNWIND $ids AS id
MATCH (e:Entry {id: id}) WHERE (
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
WITH e, e.ft_terms IS NOT NULL AND coalesce(e.context, '') = '' AS counted
RETURN e.id AS id, 
       CASE WHEN counted THEN [i IN range(0, size($cov_terms) - 1)
            WHERE any(f IN $cov_forms[i] WHERE CASE WHEN $witness_period_id IS NULL THEN e.ft_terms ELSE coalesce(e.w_ft_terms, e.ft_terms) END CONTAINS ' ' + f + ' ')
            | $cov_terms[i]] END AS present,
       CASE WHEN NOT counted OR size(coalesce(e.body, '')) <= $text_chars
            THEN coalesce(e.title, '') + ' ' + coalesce(e.body, '') END AS plain,
       CASE WHEN NOT counted THEN coalesce(CASE WHEN $witness_period_id IS NULL THEN e.names ELSE coalesce(e.w_names, e.names) END, '') END AS names,
       toLower(coalesce(e.author_id, '')) AS author, e.thread_id AS thread,
       toString(e.occurred_start) AS start, toString(e.occurred_end) AS end,
       [i IN range(0, size(coalesce(e.told_starts, [])) - 1)
        | [toString(e.told_starts[i]), toString(e.told_ends[i])]] AS told,
       size([(e)-[fm:MENTIONS]->(x) WHERE x.id IN $entity_ids AND ($witness_period_id IS NULL OR fm.witness_hidden IS NULL) | x]) AS matched,
       CASE WHEN e.id = $top_id THEN coalesce(e.title, '') + ' ' + e.body END AS top_text,
       [s IN [reduce(s = coalesce(e.title, '') + ' ' + coalesce(e.body, ''), m IN ['?', '.', '!']
                 | replace(replace(s, m + m, m), m + m, m))]
        | [size(split(s, '?')) - 1, size(split(s, '?')) + size(split(s, '.')) + size(split(s, '!')) - 3,
           size(split(trim(s), ' '))]][0] AS marks,
       CASE WHEN $alike IS NOT NULL THEN reduce(best = -1.0, s IN [(c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
            | vector.similarity.cosine(c[$prop], $alike)] | CASE WHEN s > best THEN s ELSE best END) END AS alike
