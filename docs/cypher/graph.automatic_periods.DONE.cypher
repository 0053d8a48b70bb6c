// graph.automatic_periods.DONE
OPTIONAL MATCH (b:Backfill {name: 'automatic_periods'})
RETURN coalesce(b.rule, 0) >= $rule AS done
