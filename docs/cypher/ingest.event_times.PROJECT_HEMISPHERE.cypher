// ingest.event_times.PROJECT_HEMISPHERE
MATCH (p:Project {id: $id}) RETURN coalesce(p.hemisphere, 'north') AS h
