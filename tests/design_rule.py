"""The visibility rule of docs/architecture.md ("Privacy: who sees what") in plain Python, written without looking
at the Cypher predicate: the independent oracle the property tests compare every read path with."""

from __future__ import annotations


def member_may_see(role: str | None, intimacy: str, is_author: bool) -> bool:
    """A user with `role` in the entry's project (None: not a member)."""
    if role is None:
        return False
    if intimacy == "private":
        return is_author
    if intimacy == "intimate":
        return is_author or role in ("owner", "coauthor")
    return True


def witness_may_see(in_their_chapter: bool, intimacy: str) -> bool:
    """A witness sees the circle and public entries of the chapter they were invited to, nothing else."""
    return in_their_chapter and intimacy in ("circle", "public")
