"""The language server's processes, driven as an editor drives it:
`python -m jaxcheck server` over standard input and output (raw JSON-RPC,
so the test depends on no jaxcheck API), while a thread records every child
process of the server (from /proc). It leaked its worker processes when it
exited during a run, and started new ones on every edit (issue 44, item 14);
a related place in a notebook pointed at a line of its JSON that did not
hold it (item 17)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers import BUGGY, write

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

JITTED = "import jax\n\n\n@jax.jit\ndef double(x):\n    return 2 * x\n" + "".join(
    f"\n\ndef g{k}(x):\n    return x + {k}\n" for k in range(30)
)


def _descendants(pid: int) -> set[int]:
    """Every process below `pid` (workers may be children of a fork server, not of the server)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class Server:
    """`jaxcheck server` in a subprocess; its messages and every child it ever had."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jaxcheck", "server"], cwd=root,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )
        self.messages: list[dict] = []
        self.children: list[int] = []  # every process below the server, in the order first seen
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._watch, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(stream.read(length))
            with self.arrived:
                self.messages.append(message)
                self.arrived.notify_all()

    def _watch(self) -> None:
        while self.process.poll() is None:
            for pid in sorted(_descendants(self.process.pid)):
                if pid not in self.children:
                    self.children.append(pid)
            time.sleep(0.01)

    def send(self, method: str, params, request: bool = False) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def diagnostics(self, uri: str, count: int, timeout: float = 300) -> list[dict]:
        """Wait for the `count`-th diagnostics notification of `uri`."""
        def of_uri():
            return [m for m in self.messages if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(of_uri()) >= count, timeout), self.messages
            return of_uri()[count - 1]["params"]["diagnostics"]

    def start(self, root: Path) -> None:
        self.send("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}}, request=True)
        self.send("initialized", {})

    def open(self, path: Path) -> str:
        uri = path.as_uri()
        self.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": path.read_text()}})
        return uri

    def end(self) -> None:
        if self.process.poll() is None and not self.process.stdin.closed:
            self.send("shutdown", None, request=True)
            self.send("exit", None)
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for pid in self.children:  # what a failing run left: ended here, by the ids this test saw
            if _alive(pid):
                os.kill(pid, 9)


def _project(root: Path, modules: int) -> Path:
    write(root, "pyproject.toml", '[project]\nname = "demo"\nversion = "0"\n')
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/demo.py", BUGGY)
    for number in range(modules):
        write(root, f"pkg/jitted_{number:04}.py", JITTED)
    return root


def test_an_edit_starts_no_new_worker_process(tmp_path: Path) -> None:
    root = _project(tmp_path, 200)
    server = Server(root)
    try:
        server.start(root)
        uri = server.open(root / "pkg" / "demo.py")
        assert len(server.diagnostics(uri, 1)) == 2
        after_the_cold_run = list(server.children)
        for version in range(2, 6):
            text = BUGGY + f"# edit {version}\n"
            server.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]})
            assert len(server.diagnostics(uri, version)) == 2
        time.sleep(0.5)
        assert server.children == after_the_cold_run, (after_the_cold_run, server.children)
        server.end()
        time.sleep(2.0)
        assert [pid for pid in server.children if _alive(pid)] == []
    finally:
        server.end()


def test_the_server_leaves_no_worker_when_it_exits_during_a_run(tmp_path: Path) -> None:
    root = _project(tmp_path, 1500)
    server = Server(root)
    try:
        server.start(root)
        server.open(root / "pkg" / "demo.py")
        deadline = time.monotonic() + 120
        while not server.children and time.monotonic() < deadline:  # the cold run's workers are reading
            time.sleep(0.05)
        assert server.children, "the cold run started no worker"
        time.sleep(1.0)
        server.send("exit", None)  # the editor quits during the run
        server.process.stdin.close()
        server.process.wait(timeout=60)  # it ends its workers now, not once they stall
        time.sleep(3.0)
        left = [pid for pid in server.children if _alive(pid)]
        assert left == [], f"worker processes left running after the server exited: {left}"
    finally:
        server.end()


def test_a_related_place_in_a_notebook_points_at_the_json_line_that_holds_it(tmp_path: Path) -> None:
    settings = "class Settings:\n    def __init__(self, steps):\n        self.steps = steps\n"
    use = "@partial(jax.jit, static_argnums=1)\ndef integrate(x, settings: Settings):\n    return x * settings.steps\n"
    cells = ["from functools import partial\n\nimport jax\n", "from pkg.settings import Settings\n", use]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": text.splitlines(keepends=True)}
            for text in cells
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }
    write(tmp_path, "pyproject.toml", '[project]\nname = "demo"\nversion = "0"\n\n[tool.jaxcheck]\nprofile = "strict"\n')
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/settings.py", settings)
    write(tmp_path, "nb.ipynb", json.dumps(notebook, indent=1))
    server = Server(tmp_path)
    try:
        server.start(tmp_path)
        diagnostics = server.diagnostics(server.open(tmp_path / "pkg" / "settings.py"), 1)
        assert diagnostics
        raw = (tmp_path / "nb.ipynb").read_text().splitlines()
        pointed = 0
        for sent in diagnostics:
            for info in sent.get("relatedInformation") or []:
                location = info["location"]
                if location["uri"].endswith(".ipynb"):
                    match = re.match(r"cell (\d+):(\d+): ", info["message"])
                    assert match, info
                    expected = cells[int(match[1]) - 1].splitlines(keepends=True)[int(match[2]) - 1]
                    assert json.dumps(expected) in raw[location["range"]["start"]["line"]], (info, raw)
                    pointed += 1
        assert pointed
    finally:
        server.end()
