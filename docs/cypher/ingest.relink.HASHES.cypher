// ingest.relink.HASHES
UNWIND $ids AS id MATCH (e:Entry {id: id}) RETURN e.id AS id, e.content_hash AS hash
