// queries.telemetry.search_log.PRUNE
MATCH (s:SearchLog) WHERE s.at < datetime() - duration({days: $days})
WITH s LIMIT 1000
DELETE s
