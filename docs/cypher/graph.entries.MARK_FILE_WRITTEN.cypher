// graph.entries.MARK_FILE_WRITTEN
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
SET e.file_hash = row.hash, e.record_hash = row.hash
