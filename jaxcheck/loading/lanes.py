"""Work shared between this process and children forked for it, with no thread of this process involved.

A process pool's workers are fed, and their results taken in, by threads of
this process, which wait for the interpreter lock whenever this process
computes: so this process cannot read files beside its workers, and on two
cores the decoding of all they send back competes with them. Children
forked here see the texts read so far, and each process, this one too, takes
the next item from a counter in shared memory: this process reads beside
them and takes in what they sent between its own items, and only what the
children read crosses a pipe. A child sends from a thread of its own, so it
never waits for this process to listen. Children can also work while this
process does something else, their results taken in later (`Beside`); late
in a run, such work goes to a child forked early instead (`Helper`), which
this process sends it to.

Forking is safe only while this process runs a single thread (`can_fork`);
where it does not (another platform, a language server), the pool does the
work. An item a child took and never sent back (the child died: a crash in
native code) is reported missing, for the caller to retry apart.
"""

from __future__ import annotations

import ctypes
import functools
import mmap
import os
import pickle
import queue
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from jaxcheck.failures import deep_recursion

try:
    import fcntl
except ImportError:  # Windows, where nothing forks (`can_fork`)
    fcntl = None

MISSING = object()  # what `shared` gives for an item no process finished


def can_fork() -> bool:
    """Whether children can be forked safely: on Linux, from a process of one
    thread, where a counter can be shared (some sandboxes refuse `memfd_create`)."""
    if sys.platform != "linux" or not hasattr(os, "fork") or not _counters_shared():
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


@functools.cache
def _counters_shared() -> bool:
    try:
        Counter().close()
    except (OSError, AttributeError):  # no `os.memfd_create` (an old kernel), or no lock on it
        return False
    return True


class Counter:
    """A count in memory shared with the children forked after it is made, each
    number taken once. Its lock is the kernel's (a POSIX record lock on a file
    that lives in memory only), released when the process holding it dies: a
    child killed while it takes a number stops no other process, where a
    semaphore it held would stay taken and hang the run."""

    def __init__(self) -> None:
        self._memory = mmap.mmap(-1, ctypes.sizeof(ctypes.c_long))  # anonymous and shared: a fork keeps it
        self._lock = os.memfd_create("jaxcheck-lanes", os.MFD_CLOEXEC)
        fcntl.lockf(self._lock, fcntl.LOCK_EX)
        fcntl.lockf(self._lock, fcntl.LOCK_UN)

    def take(self) -> int:
        """The next number, from 0."""
        fcntl.lockf(self._lock, fcntl.LOCK_EX)
        try:
            value = ctypes.c_long.from_buffer(self._memory)
            taken = value.value
            value.value = taken + 1
            del value  # the memory can close once no view of it is left
        finally:
            fcntl.lockf(self._lock, fcntl.LOCK_UN)
        return taken

    def close(self) -> None:
        os.close(self._lock)
        self._memory.close()


def shared(
    items: Sequence,
    here: Callable | None,
    there: Callable,
    received: Callable,
    children: int,
    done: Callable[[], None] = lambda: None,
    idle: Callable[[], None] = lambda: None,
) -> list:
    """Each item's result, in the order given: `here(item)` in this process
    (None: it declines the item, and hands it to a child; without children it
    stays MISSING), `received(there(item))` for those a child did, MISSING for
    those a dying child took. Without
    `here`, this process only takes in the children's results. Items are
    taken in order: put the longest first, so that no process waits long for
    another at the end. `done()` is called as each result comes; `idle()`,
    once, when this process has no item left to take and children still
    work: for what it would do later anyway."""
    return Beside(items, there, children, hand_back=here is not None).results(received, here, done, idle)


class Beside:
    """Items done by `children` forked now, `there(item)` each, while this
    process goes on: their results are taken in when it asks (`results`),
    where it may take items of its own too (`here`), and hand those it
    declines back to them (`hand_back`)."""

    def __init__(self, items: Sequence, there: Callable, children: int, hand_back: bool = False) -> None:
        self._items = items
        self._counter = Counter()
        self._readers: list = []
        self._handers: list = []  # to each child, the items this process declined (`results`)
        self._pids: list[int] = []
        from multiprocessing.connection import Pipe  # loaded when a run forks: a run of one process never does

        try:
            for _ in range(children):
                reader, writer = Pipe(duplex=False)
                handed, hander = Pipe(duplex=False) if hand_back else (None, None)
                pid = os.fork()
                if pid == 0:  # the child: it never returns into the caller's code
                    status = 1
                    try:
                        # A dead parent's pipes must fail the sends; the hand-backs end when this process closes its end.
                        for other in (reader, hander, *self._readers, *self._handers):
                            if other is not None:
                                other.close()
                        _serve(items, there, self._counter.take, writer, handed)
                        status = 0
                    finally:
                        os._exit(status)
                writer.close()
                if hand_back:
                    handed.close()
                    self._handers.append(hander)
                self._readers.append(reader)
                self._pids.append(pid)
        except BaseException:
            self._end()
            raise

    def results(
        self,
        received: Callable,
        here: Callable | None = None,
        done: Callable[[], None] = lambda: None,
        idle: Callable[[], None] = lambda: None,
    ) -> list:
        """Each item's result, as `shared` says; the children waited for."""
        from multiprocessing.connection import wait

        results = [MISSING] * len(self._items)
        readers, take = self._readers, self._counter.take

        def take_in(block: bool) -> None:
            for reader in wait(readers, timeout=None if block else 0):
                try:
                    index, result = pickle.loads(reader.recv_bytes())
                except (EOFError, OSError):  # the child is done, or died (perhaps in the middle of a result)
                    readers.remove(reader)
                    continue
                results[index] = received(result)
                done()

        try:
            if here is not None:
                while (index := take()) < len(self._items):
                    result = here(self._items[index])
                    if result is not None:
                        results[index] = result
                        done()
                    else:
                        self._hand(index)
                    if readers:
                        take_in(block=False)
            self._close_handers()  # the children end once the count and the hand-backs are done
            if readers:
                idle()
            while readers:
                take_in(block=True)
        finally:
            self._end()
        return results

    def _hand(self, index: int) -> None:
        """A declined item to a child, the next in turn: it takes it before its next number, and
        after its last, during the time this process would have spent on it; else it stays MISSING."""
        while self._handers:
            hander = self._handers.pop(0)
            try:
                hander.send_bytes(index.to_bytes(8, "little"))
            except OSError:  # that child died: the next one
                hander.close()
                continue
            self._handers.append(hander)
            return

    def _close_handers(self) -> None:
        for hander in self._handers:
            hander.close()
        self._handers = []

    def _end(self) -> None:
        """The children waited for: killed first when some still work (this process was interrupted)."""
        if self._counter is None:  # ended already
            return
        self._close_handers()
        for pid in self._pids:
            if self._readers:
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        for reader in self._readers:
            reader.close()
        self._pids, self._readers = [], []
        self._counter.close()
        self._counter = None


class Helper:
    """One child, forked while this process is still small, that does the
    items sent to it (`send`), a batch at a time, while this process goes on.

    For work beside this process late in a run (LibCST's confirmation while
    the rules run): a child forked then would share every page of the facts
    and the model, and this process would copy each one it writes while the
    child lives (a fifth of a second of system time on the speed corpus,
    all of it while nothing else runs). The helper shares only what this
    process held when it started: its items come through a pipe."""

    def __init__(self) -> None:
        from multiprocessing.connection import Pipe

        requests, self._requests = Pipe(duplex=False)
        self._results, results = Pipe(duplex=False)
        self._pid = os.fork()
        if self._pid == 0:  # the child: it never returns into the caller's code
            status = 1
            try:
                self._requests.close()  # a dead parent's pipe ends the child
                self._results.close()
                _help(requests, results)
                status = 0
            finally:
                os._exit(status)
        requests.close()
        results.close()
        self._sent = 0  # batches sent
        self._received: dict[int, dict[int, object]] = {}  # batch -> index -> result, as they came
        self._alive = True
        self._prepared: set = set()  # the tasks sent by `prepare`

    def prepare(self, task: Callable[[], None]) -> None:
        """`task()` done once in the helper, before the batches sent after it:
        what they need loaded (LibCST: a quarter of a second), loaded while
        this process goes on, not when the first batch has to wait for it."""
        if self._alive and task not in self._prepared:
            self._prepared.add(task)
            try:
                self._requests.send_bytes(pickle.dumps((None, task, ()), protocol=pickle.HIGHEST_PROTOCOL))
            except OSError:  # it died
                self._alive = False

    def send(self, items: Sequence, there: Callable) -> Sent | None:
        """`there(item)` of each item, done in the helper; None when it is gone
        (`there` and the items go by pickle: a module's function, plain data)."""
        if not self._alive:
            return None
        batch, self._sent = self._sent, self._sent + 1
        try:
            self._requests.send_bytes(pickle.dumps((batch, there, list(items)), protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:  # it died
            self._alive = False
            return None
        self._received[batch] = {}
        return Sent(self, batch, len(items))

    def _results_of(self, batch: int, count: int) -> dict[int, object]:
        """What the helper sent for the batch, waited for: all of it, or what came before it died."""
        found = self._received[batch]
        while len(found) < count and self._alive:
            try:
                sent_batch, index, result = pickle.loads(self._results.recv_bytes())
            except (EOFError, OSError):  # it died (a crash in native code)
                self._alive = False
                break
            self._received[sent_batch][index] = result
        return self._received.pop(batch)

    def close(self) -> None:
        """The helper ends once it has done what it was sent; killed when this process was interrupted."""
        self._requests.close()
        self._results.close()
        try:
            pid, _ = os.waitpid(self._pid, os.WNOHANG)
            if pid == 0:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
        except OSError:
            pass


class Sent:
    """A batch sent to the helper: its results when asked (`results`), as `Beside` gives them."""

    def __init__(self, helper: Helper, batch: int, count: int) -> None:
        self._helper, self._batch, self._count = helper, batch, count

    def results(self, received: Callable) -> list:
        found = self._helper._results_of(self._batch, self._count)
        return [received(found[index]) if index in found else MISSING for index in range(self._count)]


def _help(requests, results) -> None:
    """The helper's work: each batch as it comes, each result sent as it is
    done; a task to prepare (a batch numbered None) done and not answered."""
    with _sending(results) as send:
        while True:
            try:
                batch, there, items = pickle.loads(requests.recv_bytes())
            except EOFError:  # this process is done with it
                break
            if batch is None:
                there()
            for index, item in enumerate(items):
                send((batch, index, there(item)))


def _serve(items: Sequence, there: Callable, take: Callable[[], int], writer, handed) -> None:
    """A child's work: items taken in turn, each result sent as it is done;
    the items this process hands back (`Beside._hand`) first, and, once the
    count is done, until it closes its end."""

    def next_index() -> int | None:
        if handed is not None and handed.poll():
            try:
                return int.from_bytes(handed.recv_bytes(), "little")
            except EOFError:
                pass
        if (index := take()) < len(items):
            return index
        try:
            # Waits for this process to end its turn: what it declines at the end is still done here.
            return int.from_bytes(handed.recv_bytes(), "little") if handed is not None else None
        except EOFError:
            return None

    with _sending(writer) as send:
        while (index := next_index()) is not None:
            send((index, there(items[index])))


@contextmanager
def _sending(writer) -> Iterator[Callable]:
    """A child's `send(result)`: pickled where it is done, written to `writer` by
    a thread of its own, so that the child never waits for this process to
    read; the writer closed once all is written."""
    outbox: queue.SimpleQueue = queue.SimpleQueue()

    def write() -> None:
        try:
            while (data := outbox.get()) is not None:
                writer.send_bytes(data)
        except OSError:  # this process is gone (killed): so is the child, at once
            os._exit(1)

    def send(result) -> None:
        with deep_recursion():  # facts too deep to encode come as they are
            outbox.put(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))

    sender = threading.Thread(target=write)
    sender.start()
    try:
        yield send
    finally:
        outbox.put(None)
        sender.join()
        writer.close()
