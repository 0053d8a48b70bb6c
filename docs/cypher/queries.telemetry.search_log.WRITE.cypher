// queries.telemetry.search_log.WRITE
CREATE (s:SearchLog {id: $id, at: datetime(), user_id: $user_id, witness: $witness, project_ids: $project_ids,
                     query_hash: $query_hash, candidates: $candidates, rerank: $rerank, latency: $latency,
                     cached: $cached, result_ids: $result_ids, result_channels: $result_channels, clicks: []})
