"""Dates in words, in Spanish, English and French, read by rules (no model): "el verano de 2008", "last Saturday",
"hace dos años", "l'été dernier". Regular expressions find the expressions (`temporal.py`, words in
`temporal_words.py`), `temporal_resolve.py` combines them into one range, `calendar_math.py` does the arithmetic
against an explicit `now`. Query understanding reads a question's date with it; ingest reads the times an entry's
sentences tell, against the day the entry was written."""
