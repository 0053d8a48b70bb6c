"""One router per page family: sign-in, search (and the projects), the timeline, an entry."""
