// ingest.relink.MARK_WITNESS_VIEW
UNWIND $ids AS id MATCH (e:Entry {id: id}) SET e.witness_view = $version
