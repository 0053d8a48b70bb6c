// graph.forgetting.DROP_AUTHORED_NAME_RECORDS
MATCH (d:Declaration|Dismissal|EntityMerge {project_id: $project_id}) WHERE d.author_id = $user_id
DETACH DELETE d
