// graph.entity_edits.SET_LISTED
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
SET e.listed_persons = row.persons, e.listed_places = row.places
