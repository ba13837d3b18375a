"""Worker processes that read files beside this one: a standard process pool.

Reading (parsing and extracting facts, or asking Python's parser about a
text) is most of a cold run, and files are independent, so a run of more
than one job shares it out in batches of files. A few files are read here:
starting workers costs more than they save. Workers are forked where that
is safe (Linux, no other thread running), so that they start with jaxcheck
imported; elsewhere they are spawned.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterable, TypeVar

from jaxcheck.collector import THRESHOLD

Item = TypeVar("Item")
Outcome = TypeVar("Outcome")

FEWEST_SHARED = 16  # fewer items than this are read here
_BATCH = 8  # items per task: fewer round trips, still an even share at the end
# A worker that finishes no batch for this long is taken for dead (stopped, or
# stuck in the kernel): its batches are read here instead.
STALLED_AFTER = 120.0
# How often a run waiting on its workers looks whether `stop` was called: a
# batch running in a killed worker may never report, so waiting on it alone
# could outlast the stop.
_LOOK_EVERY = 0.5
_FILES_PER_WORKER = 6  # descriptors a worker costs this process (pipes, its sentinel), with a margin


class Pool:
    """Up to `workers` processes, started on first use and kept until `close`
    (a language server keeps its pool for the whole session)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self.note = ""  # what the user should know: fewer workers than asked for
        self.stopped = False  # `stop` was called: no run goes on
        self._executor: ProcessPoolExecutor | None = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def map(self, function: Callable[[Item], Outcome], items: list[Item], told: Callable[[], None] = lambda: None) -> list[Outcome]:
        """`function` of each item, in order; `told()` after each. Shared with
        the workers when there are enough items; a batch a worker could not
        finish (it died, or stalled) is read here."""
        if self.workers == 1 or len(items) < FEWEST_SHARED:
            return self._read_here(function, items, told)
        executor = self._started()
        if executor is None:
            return self._read_here(function, items, told)
        batches = [items[start : start + _BATCH] for start in range(0, len(items), _BATCH)]
        outcomes: list[list[Outcome] | None] = [None] * len(batches)
        try:
            futures = {executor.submit(_each, function, batch): index for index, batch in enumerate(batches)}
        except (BrokenProcessPool, RuntimeError):
            self._stop()
            futures = {}
        pending = set(futures)
        stalled_at = time.monotonic() + STALLED_AFTER
        while pending:
            done, pending = wait(pending, timeout=_LOOK_EVERY, return_when=FIRST_COMPLETED)
            if self.stopped:
                raise Stopped
            if not done and time.monotonic() < stalled_at:
                continue
            if not done:  # no batch finished for a long time: the workers are not working
                self._stop()
                break
            stalled_at = time.monotonic() + STALLED_AFTER
            for future in done:
                found = _result(future)
                if found is not None:
                    outcomes[futures[future]] = found
                    for _ in found:
                        told()
        for index, found in enumerate(outcomes):
            if found is None:  # lost with a worker: read here
                outcomes[index] = self._read_here(function, batches[index], told)
        return [outcome for found in outcomes for outcome in found]

    def _read_here(self, function: Callable[[Item], Outcome], items: list[Item], told: Callable[[], None]) -> list[Outcome]:
        """`function` of each item, in this process. A stopped pool reads no
        more: a stop that lands between two runs of its workers, or after they
        were ended, would otherwise leave this process reading a whole project."""
        outcomes = []
        for item in items:
            if self.stopped:
                raise Stopped
            outcomes.append(_told(function(item), told))
        return outcomes

    def close(self) -> None:
        """End the workers once they are idle: the run is over."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def stop(self) -> None:
        """End the workers now, from any thread: a run sharing files with them
        raises `Stopped` (a language server exiting while it checks)."""
        self.stopped = True
        self._stop()

    def _started(self) -> ProcessPoolExecutor | None:
        if self._executor is None:
            workers = min(self.workers, _affordable_workers())
            if workers < self.workers:
                self.note = f"--jobs {self.workers}: too few file descriptors for that many workers; {workers} used"
            if workers < 2:
                self.workers = 1
                return None
            # A worker reads files as this process does: with the collector set for it.
            self._executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=_context(), initializer=gc.set_threshold, initargs=THRESHOLD
            )
        return self._executor

    def _stop(self) -> None:
        """End the workers now, whatever they are doing."""
        executor, self._executor = self._executor, None
        self.workers = 1  # what is left of this run is read here
        if executor is None:
            return
        processes = list(getattr(executor, "_processes", {}).values())
        for process in processes:
            try:
                process.kill()
            except (OSError, AttributeError):
                pass
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # reaped, so that none is left behind when this process ends
            try:
                process.join(timeout=5)
            except (OSError, AttributeError, AssertionError):
                pass


class Stopped(Exception):
    """The pool was stopped while a run shared files with its workers."""


def _each(function: Callable[[Item], Outcome], batch: Iterable[Item]) -> list[Outcome]:
    return [function(item) for item in batch]


def _result(future: Future) -> list | None:
    try:
        return future.result()
    except (BrokenProcessPool, OSError, EOFError):
        return None


def _told(outcome: Outcome, told: Callable[[], None]) -> Outcome:
    told()
    return outcome


def _context():
    """Fork where it is safe (Linux, this process running one thread): workers
    start with jaxcheck imported. With other threads running (a language
    server, or a program that imported JAX and runs jaxcheck in-process), a
    forked worker could inherit a lock one of them holds: a fork server starts
    workers afresh. Elsewhere, Python's default (spawn)."""
    if not sys.platform.startswith("linux"):
        return None
    return multiprocessing.get_context("fork" if _threads_running() == 1 else "forkserver")


def _threads_running() -> int:
    """The threads of this process, those that native libraries started
    included (Python's own count sees only its threads)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _affordable_workers() -> int:
    """How many workers the open-file limit leaves room for (a worker takes a few descriptors)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return os.cpu_count() or 1
    if soft == resource.RLIM_INFINITY:
        return os.cpu_count() or 1
    in_use = _open_descriptors()
    return max(0, (soft - in_use - 16) // _FILES_PER_WORKER)


def _open_descriptors() -> int:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 16

