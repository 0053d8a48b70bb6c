"""How much the expensive tests run: the Hypothesis profile named by `MEMORA_TEST_PROFILE`.

`full` (the default, `make test` and CI) runs each property test's own example count, sized so the whole suite fits
its time on two cores; `thorough` three times that, for a release or a change to the privacy rule; `quick` (`make
check`, the edit loop) a fifth, at least two. Each expensive test prints what it ran and how long it took
(conftest.SUMMARY), so a run states its own budget.
"""

from __future__ import annotations

import os
import time

from hypothesis import settings

PROFILES = {"full": 1.0, "quick": 0.2, "thorough": 3.0}
PROFILE = os.environ.get("MEMORA_TEST_PROFILE", "full")
if PROFILE not in PROFILES:
    raise ValueError(f"MEMORA_TEST_PROFILE={PROFILE!r}: choose one of {sorted(PROFILES)}")
for _name, _share in PROFILES.items():
    settings.register_profile(
        _name, deadline=None, database=None, print_blob=True, max_examples=max(2, round(100 * _share))
    )
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """A test's example count under the active profile, from the count it runs in full."""
    return max(2, round(full * PROFILES[PROFILE]))


def spent(since: float) -> str:
    """What a module's run of the budget cost, for its summary line."""
    return f"in {time.monotonic() - since:.0f} s ({PROFILE} profile)"
