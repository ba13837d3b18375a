"""Work shared with forked children (`loading/lanes.py`): each item done once, in
order, by this process or a child, which takes what this process declines;
what a dying child took is reported missing; this process's idle moment is
offered once; a child killed while it takes an item stops no other; and
nothing is forked while this process runs other threads."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import pytest

from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.loading import lanes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lanes fork on Linux only")

# In a fresh process: this one may run threads (JAX's), and a fork from it would be unwise.
_SHARED = textwrap.dedent(
    """
    import os, sys, time
    from jaxcheck.loading.lanes import MISSING, Helper, can_fork, shared

    assert can_fork()
    me = os.getpid()
    items = list(range(60))

    def here(item):
        time.sleep(0.002)
        return None if item % 7 == 0 else ("here", item * item)

    def there(item):
        if item == 40 and sys.argv[1] == "die":
            os._exit(139)
        time.sleep(0.05 if item >= 55 else 0.002)  # the children still work when this process runs out
        return (os.getpid(), item * item)

    def received(result):
        pid, value = result
        assert pid != me
        return ("there", value)

    told, idle = [], []
    helper = Helper(2) if sys.argv[2] == "helper" else None  # its children know the functions above, as modules' ones
    # Dying, only children read: this process would not die on 40.
    reader = None if sys.argv[1] == "die" else here
    if helper is None:
        results = shared(items, reader, there, received, 2, lambda: told.append(1), lambda: idle.append(os.getpid()))
    else:
        wave = helper.wave(items, there, hand_back=reader is not None)
        results = wave.results(received, reader, lambda: told.append(1), lambda: idle.append(os.getpid()))
        # A wave after a child died goes on with the other; after both, this process reads alone.
        again = helper.wave(items[:20], there, hand_back=True).results(received, here)
        assert all(result is not MISSING for result, item in zip(again, items) if item % 7), again
        print("again", sum(result is MISSING for result in again), helper.alive)
        helper.close()
        assert not open(f"/proc/{me}/task/{me}/children").read().split()
    for item, result in zip(items, results):
        print(item, "missing" if result is MISSING else f"{result[0]} {result[1]}")
    print("told", len(told))
    print("idle", idle == [me])
    """
)


def _run(how: str, who: str = "shared") -> dict[int, str]:
    completed = subprocess.run(
        [sys.executable, "-c", _SHARED, how, who], capture_output=True, text=True, timeout=120
    )
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    found = {int(line.split()[0]): line.split(" ", 1)[1] for line in lines if line[0].isdigit()}
    assert len(found) == 60
    told = int(next(line for line in lines if line.startswith("told")).split()[1])
    assert told == len([outcome for outcome in found.values() if outcome != "missing"])
    assert "idle True" in lines  # once, here, while the children still worked
    if who == "helper":
        assert "again 0 True" in lines, lines  # the next wave: shared with the children left, however many
    return found


@pytest.mark.parametrize("who", ["shared", "helper"])
def test_each_item_is_done_once_in_order_by_this_process_or_a_child(who) -> None:
    found = _run("live", who)
    for item, outcome in found.items():
        where, value = outcome.split()
        assert int(value) == item * item
        if item % 7 == 0:  # declined here: handed to a child, also at the end of this process's turn
            assert where == "there", item
    assert {outcome.split()[0] for outcome in found.values()} >= {"here", "there"}  # the work was shared


@pytest.mark.parametrize("who", ["shared", "helper"])
def test_what_a_dying_child_took_is_missing_and_nothing_else(who) -> None:
    found = _run("die", who)
    missing = {item for item, outcome in found.items() if outcome == "missing"}
    # 40, and what the dead child had read but not yet sent; the other child read on to the end.
    assert 40 in missing and len(missing) < 10, missing
    assert all(found[item] == f"there {item * item}" for item in range(41, 60))


def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not lanes.can_fork()
    finally:
        stop.set()
        thread.join()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_lanes_are_asked_for_only_on_linux(monkeypatch) -> None:
    monkeypatch.setattr(lanes.sys, "platform", "darwin")
    assert not lanes.can_fork()


_KILLED = textwrap.dedent(
    """
    import os, sys, time
    from jaxcheck.loading.lanes import shared

    def here(item):
        print(os.getpid(), flush=True)
        time.sleep(60)  # killed while working on its first item, whichever it is

    def there(item):
        time.sleep(0.1)
        return os.getpid()

    shared(list(range(300)), here, there, lambda sent: sent, 2)
    """
)


def test_children_end_soon_after_this_process_is_killed() -> None:
    """A run killed by an editor or a CI step leaves no children parsing on:
    the next result a child sends fails, and the child ends."""
    import signal
    import time

    process = subprocess.Popen([sys.executable, "-c", _KILLED], stdout=subprocess.PIPE, text=True)
    try:
        assert int(process.stdout.readline()) == process.pid
        time.sleep(0.5)  # the children have sent a few results
        children = [int(pid) for pid in open(f"/proc/{process.pid}/task/{process.pid}/children").read().split()]
        assert len(children) == 2
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + 10  # the 300 items would take the children 15 s
    while any(os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid) for pid in children):
        assert time.monotonic() < deadline, "a child kept working after this process was killed"
        time.sleep(0.1)


def _state(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


_DYING_MID_RESULT = textwrap.dedent(
    """
    import os, signal, time
    from jaxcheck.loading.lanes import MISSING, shared

    def there(item):
        if item == 0:
            return b"x" * (64 * 1024 * 1024)  # sent in many writes through the pipe
        time.sleep(0.001)
        os.kill(os.getpid(), signal.SIGSEGV)  # a crash in native code while the sender still writes

    results = shared([0, 1], None, there, len, 1)
    print(["missing" if result is MISSING else result for result in results])
    """
)


def test_a_child_that_dies_in_the_middle_of_a_result_costs_only_what_it_took() -> None:
    completed = subprocess.run([sys.executable, "-c", _DYING_MID_RESULT], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split("\n")[0] in ("['missing', 'missing']", f"[{64 * 1024 * 1024}, 'missing']")


_KILLED_TAKING = textwrap.dedent(
    """
    import ctypes, os, signal
    from jaxcheck.loading.lanes import Counter

    counter = Counter()
    assert counter.take() == 0
    pid = os.fork()
    if pid == 0:
        ctypes.c_long.from_buffer = lambda memory: os.kill(os.getpid(), signal.SIGKILL)  # killed holding the lock
        counter.take()
        os._exit(0)
    os.waitpid(pid, 0)
    print(counter.take())
    """
)


def test_a_child_killed_while_it_takes_a_number_stops_no_other() -> None:
    """An out-of-memory kill can come at any instruction: the lock the child held is released with it."""
    completed = subprocess.run([sys.executable, "-c", _KILLED_TAKING], capture_output=True, text=True, timeout=60)
    assert (completed.returncode, completed.stdout) == (0, "1\n"), completed.stderr


_HELPER = textwrap.dedent(
    """
    import os, sys
    from jaxcheck.loading.lanes import MISSING, Helper

    def square(item):
        if item == 13 and sys.argv[1] == "die":
            os._exit(139)
        return (os.getpid(), item * item)

    helper = Helper()
    first = helper.send(list(range(10)), square)
    if sys.argv[1] == "die":
        firsts = first.results(lambda sent: sent)  # all of it in before the helper dies
    second = helper.send(list(range(10, 20)), square)
    seconds = second.results(lambda sent: sent)  # asked before the first: both kept
    if sys.argv[1] != "die":
        firsts = first.results(lambda sent: sent)
    me = os.getpid()
    print([value for pid, value in firsts] == [item * item for item in range(10)] and all(pid != me for pid, _ in firsts))
    print(["missing" if result is MISSING else result[1] for result in seconds])
    print(helper.send([1], square) is None)
    helper.close()
    print(sorted(os.listdir(f"/proc/{me}/task")) == [str(me)] and not open(f"/proc/{me}/task/{me}/children").read().split())
    """
)


_PREPARED = textwrap.dedent(
    """
    import os
    from jaxcheck.loading.lanes import Helper

    prepared = 0

    def prepare():
        global prepared
        prepared += 1

    def seen(item):
        return (os.getpid(), prepared)

    helper = Helper()
    helper.prepare(prepare)
    helper.prepare(prepare)
    sent = helper.send([1, 2], seen)
    helper.prepare(prepare)
    print(sent.results(lambda result: result[1]), prepared, helper.send([3], seen).results(lambda result: result[1]))
    helper.close()
    """
)


def test_the_helper_does_a_task_to_prepare_once_and_before_the_batches_sent_after_it() -> None:
    """What the batches will need is loaded in the helper, not here, and once however often it is asked."""
    completed = subprocess.run([sys.executable, "-c", _PREPARED], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split("\n")[0] == "[1, 1] 0 [1]"


@pytest.mark.parametrize("how", ["live", "die"])
def test_the_helper_does_each_batch_in_its_process_and_ends_with_this_ones_close(how) -> None:
    """Batches sent to the helper come back whole and in order, whichever is asked
    for first; what a dying helper did not send is missing, and nothing more
    is sent to it; its close leaves no process behind."""
    completed = subprocess.run([sys.executable, "-c", _HELPER, how], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    done, seconds, refused, ended = completed.stdout.splitlines()
    assert done == "True" and ended == "True"
    if how == "live":
        assert seconds == str([item * item for item in range(10, 20)]) and refused == "False"
    else:
        # 13 killed it: what it did before may not have been sent yet either.
        assert seconds.endswith(", 'missing'" * 7 + "]") and all(
            value in (str(item * item), "'missing'") for item, value in zip(range(10, 13), seconds[1:].split(", "))
        )
        assert refused == "True"


_HELPER_ORPHANED = textwrap.dedent(
    """
    import os, sys, time
    from jaxcheck.loading.lanes import MISSING, Helper

    def there(item):
        if sys.argv[1] == "die":
            os._exit(139)
        return item

    helper = Helper(2)
    if sys.argv[1] == "die":  # every child dies: what this process declines is missing, the rest is done here
        wave = helper.wave(list(range(10)), there, hand_back=True)
        results = wave.results(lambda sent: sent, lambda item: item if item % 2 else None)
        print(["missing" if result is MISSING else result for result in results], helper.alive, helper.send([1], there))
        helper.close()
    else:
        print(*open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read().split(), flush=True)
        time.sleep(60)  # killed here, its children waiting for work
    """
)


def test_the_helpers_children_all_dead_this_process_reads_alone() -> None:
    completed = subprocess.run([sys.executable, "-c", _HELPER_ORPHANED, "die"], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    (line,) = completed.stdout.splitlines()
    found, rest = line.rsplit("]", 1)
    results = [value.strip(" '") for value in found.strip("[").split(",")]
    assert rest == " False None"  # no child left for a wave or a batch
    assert all(results[item] == "missing" for item in range(0, 10, 2))  # declined here, and no child to take them
    taken = [item for item in range(1, 10, 2) if results[item] == "missing"]  # a child took it, and died
    assert len(taken) <= 2 and all(results[item] == str(item) for item in range(1, 10, 2) if item not in taken)


def test_the_helpers_children_end_when_this_process_is_killed() -> None:
    """Waiting for work, each child sees this process end, and ends: none holds the pipe of another open."""
    import signal
    import time

    process = subprocess.Popen([sys.executable, "-c", _HELPER_ORPHANED, "wait"], stdout=subprocess.PIPE, text=True)
    try:
        children = [int(pid) for pid in process.stdout.readline().split()]
        assert len(children) == 2
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid) for pid in children):
        assert time.monotonic() < deadline, "a child of the helper lived on after this process was killed"
        time.sleep(0.1)


@pytest.mark.parametrize(
    "result",
    [
        (("mod.py", "mod", ((), [("f", (3, 4), "jax.jit")]), [1.5, None, True, {"r": "b''"}]), None, False, True),
        (None, Finding("mod.py", 1, 1, BAD_INPUT, "cannot analyse: the code nests too deeply for jaxcheck"), False, True),
    ],
    ids=["encoded-facts", "a-finding"],
)
def test_a_childs_result_comes_back_as_it_was_sent(result):
    """Encoded facts, plain data, go by `marshal`; what it cannot write (a finding,
    facts too deep to encode) by pickle."""
    packed = lanes._packed(result)
    assert packed[:1] == (lanes._PICKLE if result[1] is not None else lanes._MARSHAL)
    assert lanes._unpacked(packed) == result
