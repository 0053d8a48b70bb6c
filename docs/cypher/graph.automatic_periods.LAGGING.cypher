// graph.automatic_periods.LAGGING
MATCH (e:Entry) WHERE coalesce(e.period_rule, 0) < $rule
RETURN e.id AS id, e.project_id AS project_id, e.period_name AS declared, e.occurred_start AS start,
       e.occurred_end AS end, e.metadata AS metadata
LIMIT $limit
