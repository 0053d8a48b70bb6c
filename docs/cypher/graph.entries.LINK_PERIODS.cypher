// graph.entries.LINK_PERIODS
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
MATCH (p:Project {id: row.project_id})
MERGE (per:Period {id: row.period_id})
ON CREATE SET per.project_id = row.project_id, per.level = 'chapter', per.created_at = datetime(),
              per.automatic = CASE WHEN row.automatic THEN true END
MERGE (per)-[:PART_OF]->(p)
MERGE (e)-[:IN_PERIOD]->(per)
