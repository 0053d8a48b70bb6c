// graph.summaries.STALE_SUMMARIES
MATCH (s:Summary)
WHERE (s.stale = true OR s.pending_llm = true OR coalesce(s.form, 1) <> $form)
  AND ($project_id IS NULL OR s.project_id = $project_id)
RETURN s.id AS id, s.project_id AS project_id, s.period_id AS period_id, s.base AS base, s.owner AS owner
ORDER BY s.project_id, s.level DESC, s.id
LIMIT $limit
