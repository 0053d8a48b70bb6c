// graph.schema.RECORD
MERGE (m:Migration {version: $version})
SET m.name = $name, m.checksum = $checksum, m.applied_at = datetime()
