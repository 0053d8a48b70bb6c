"""Context lent to writers: the chapter generator's descent (project → period → entries) and live interview context,
both within a token budget."""
