"""Python's cyclic garbage collector, set for a run that builds millions of objects.

LibCST makes millions of small objects per run, and every full collection
walks all that are still alive: with the default thresholds the collector took
a third of a cold run's CPU. A tree's nodes hold no reference cycles (they are
freed by reference counting when extraction drops the tree), so collecting
rarely loses little memory. The objects alive when a run starts (the imported
modules, the host's own: flake8's, the language server's) are frozen out of
the collector's walks for the run, and everything is restored after it: the
flake8 plugin and the language server share their process with others.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

# A young collection after this many net allocations (default 700); the older
# generations as rarely as that makes sense: a full collection walks everything.
THRESHOLD = (100_000, 50, 1000)


@contextmanager
def few_collections(kept: bool = False) -> Iterator[None]:
    """Collect rarely, and never walk what was alive before, until the block
    ends; nor after it, what the block leaves alive when that is `kept` until
    the process exits (the command line's run: its report, with the
    collector's own settings, would otherwise walk the facts again and again:
    0.8 s of a `--jobs 2` run of the speed corpus, whose summary imports LibCST)."""
    threshold = gc.get_threshold()
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    gc.set_threshold(*THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if kept:
            gc.freeze()
        elif not frozen_before:  # the host froze nothing of its own: give it back what we froze
            gc.unfreeze()


@contextmanager
def paused() -> Iterator[None]:
    """No collection in the block, nor a walk after it of what the block made:
    for the model and the rules, whose indexes live until the findings are
    out and make next to no cycles (on the speed corpus, the young
    collections they triggered freed fewer than 2,000 objects, and took
    0.04 s while no other process had work). What the block leaves alive is
    frozen as `few_collections` froze the facts: re-enabled alone, the
    collector would walk all of it at the next allocation."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def in_worker() -> None:
    """A worker process's initializer: it lives only to parse, so its settings stay."""
    gc.freeze()
    gc.set_threshold(*THRESHOLD)
