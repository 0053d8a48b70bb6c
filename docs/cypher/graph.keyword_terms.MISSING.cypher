// graph.keyword_terms.MISSING
MATCH (e:Entry) WHERE e.ft_terms IS NULL
RETURN e.id AS id, e.content_hash AS hash, coalesce(e.title, '') + ' ' + coalesce(e.body, '') + ' ' + coalesce(e.names, '') + ' ' + coalesce(e.context, '') AS text
LIMIT $batch
