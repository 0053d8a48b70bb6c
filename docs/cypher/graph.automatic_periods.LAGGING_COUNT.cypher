// graph.automatic_periods.LAGGING_COUNT
MATCH (e:Entry) WHERE coalesce(e.period_rule, 0) < $rule
RETURN count(e) AS n
