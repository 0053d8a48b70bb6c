"""The sampled retrieval log, click feedback and the aggregate statistics `memora stats` reads from them."""
