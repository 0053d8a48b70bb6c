// graph.schema.APPLIED
MATCH (m:Migration) RETURN m.version AS version, m.name AS name, m.checksum AS checksum
