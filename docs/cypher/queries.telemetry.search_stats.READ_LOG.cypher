// queries.telemetry.search_stats.READ_LOG
MATCH (s:SearchLog)
WHERE s.at >= datetime() - duration({days: $days}) AND ($project_id IS NULL OR $project_id IN s.project_ids)
RETURN s.latency AS latency, s.cached AS cached, s.result_channels AS channels, s.clicks AS clicks,
       s.rerank AS rerank, s.candidates AS candidates
