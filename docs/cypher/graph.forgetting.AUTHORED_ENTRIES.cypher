// graph.forgetting.AUTHORED_ENTRIES
MATCH (e:Entry {project_id: $project_id}) WHERE e.author_id = $user_id
RETURN e.id AS id ORDER BY id
