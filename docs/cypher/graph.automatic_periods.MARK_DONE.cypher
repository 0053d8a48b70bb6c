// graph.automatic_periods.MARK_DONE
MERGE (b:Backfill {name: 'automatic_periods'})
SET b.rule = $rule, b.at = datetime()
