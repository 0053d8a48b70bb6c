// graph.keyword_terms.FILL
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
WHERE e.ft_terms IS NULL AND coalesce(e.content_hash, '') = row.hash
SET e.ft_terms = row.terms, e.ft_len = row.length
RETURN count(e) AS filled
