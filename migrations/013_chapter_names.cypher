// A chapter node keeps no name (graph/periods.py): each entry keeps its own spelling, and a viewer is shown the
// spellings of the entries they may see. A witness grant keeps the name its witness's accounts are filed under:
// here the smallest spelling of the chapter's circle and public entries (what any member and the witness see), else
// the chapter's slug (the part of its id after `/period/`, which names the same chapter again).
MATCH (g:WitnessGrant)-[:FOR]->(per:Period) WHERE g.period_name IS NULL
SET g.period_name = coalesce(COLLECT { MATCH (e:Entry)-[:IN_PERIOD]->(per) WHERE e.intimacy IN ['circle', 'public']
                                       RETURN e.period_name ORDER BY e.period_name LIMIT 1 }[0],
                             substring(per.id, size(per.project_id) + size('/period/')));
MATCH (per:Period) WHERE per.name IS NOT NULL REMOVE per.name;
// Chapter vectors were named by the node's name; they are named again from their audience's entries when the
// entity-vector refresh rebuilds them (their signatures changed), and until then by nothing.
MATCH (v:EntityVector {kind: 'period'}) SET v.name = null, v.keys = [];
