"""Python's cyclic garbage collector, set for a run that builds millions of objects.

A run builds millions of small objects (syntax trees, then facts) that hold
almost no reference cycles: with the default thresholds the collector walks
them again and again, and takes as much CPU as the rest of the run. So a run
collects rarely, as mypy does, and gives the host (the flake8 plugin, the
language server) its own settings back afterwards.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

THRESHOLD = (200_000, 30, 30)  # mypy's: a young collection after this many net allocations


@contextmanager
def few_collections() -> Iterator[None]:
    """Collect rarely until the block ends."""
    threshold = gc.get_threshold()
    gc.set_threshold(*THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
