// graph.purge.INDEXES
SHOW INDEXES YIELD name, type, owningConstraint, createStatement, labelsOrTypes, properties, entityType
WHERE owningConstraint IS NULL
RETURN name, type, createStatement AS statement, labelsOrTypes AS labels, properties, entityType AS entity
ORDER BY name
