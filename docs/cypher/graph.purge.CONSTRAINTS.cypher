// graph.purge.CONSTRAINTS
SHOW CONSTRAINTS YIELD name, createStatement RETURN name, createStatement AS statement ORDER BY name
