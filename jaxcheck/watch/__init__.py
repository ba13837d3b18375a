"""`jaxcheck watch`: the static hazards, seen as they happen under real JAX.

`with jaxcheck.watch() as seen:` wraps `jax.jit` and its kin (SPEC §2) for
the duration of the block; `seen` is the list of findings, in the same
`Finding` type `check` reports. The linter never imports this package: it is
the only part of jaxcheck that imports JAX.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import types
from typing import Callable, Iterator

from jaxcheck.findings import Finding

_lock = threading.Lock()
_current = None  # the one watch that is on


class Seen(list):
    """The findings of a watch, in the order they arose (a list of `Finding`)."""


@contextlib.contextmanager
def watch(on_finding: Callable[[Finding], None] | None = None) -> Iterator[Seen]:
    """Watch the transforms while the block runs; yields the list its findings are added to (and calls
    `on_finding` with each as it arises). An inner `watch()` joins the one that is on: its list gets the
    findings that arise while it runs."""
    global _current
    from jaxcheck.watch.hooks import Patches
    from jaxcheck.watch.observe import Observer

    seen = Seen()
    with _lock:
        outer = _current
        if outer is None:
            observer = Observer()
            patches = Patches(observer)
            patches.install()
            observer.active = True
            _current = (observer, patches)
        else:
            observer = outer[0]
    previous = observer.on_finding

    def added(finding: Finding) -> None:
        seen.append(finding)
        if on_finding is not None:
            on_finding(finding)
        if previous is not None:
            previous(finding)

    observer.on_finding = added
    try:
        yield seen
    finally:
        observer.on_finding = previous
        if outer is None:
            with _lock:
                observer.active = False
                patches.uninstall()
                observer.close()
                _current = None


def new_case() -> None:
    """Count a static argument's distinct values afresh from here: each test of a suite is a case,
    and parametrised tests that give one call site a value each compile once per value on purpose."""
    with _lock:
        if _current is not None:
            _current[0].case += 1


class _CallableModule(types.ModuleType):
    """`jaxcheck.watch` is this package, and `jaxcheck.watch()` the context manager: both spellings work."""

    def __call__(self, *args, **kwargs):
        return watch(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["Seen", "new_case", "watch"]
