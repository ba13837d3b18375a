"""A baseline file: the findings a codebase had when it adopted jaxcheck, accepted so that only new ones fail.

A finding is known by its path (relative to the baseline's folder), its code,
its message with the places it names spelled without their lines and cells,
and the stripped text of the line it is reported on: lines (or cells)
inserted above it do not make it new, and a change to the reported line does. The baseline is a multiset: two equal findings in it
accept two, a third is new. The file is JSON, one entry per finding, sorted,
with no line numbers, so that a refresh after code moved changes nothing.

A baseline comes with the project, so it is handled as a file anyone may
have written: it is neither read nor written through a symbolic link (a
link to `~/.bashrc` would be overwritten, a dangling one would create its
target, one to a FIFO or `/dev/zero` would hang the run or fill memory).
It is read only when it is a regular file of sensible size, and written
whole or not at all: to a temporary file beside it, then moved over it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import stat
from collections import Counter
from typing import Iterable

from jaxcheck.findings import Finding, reason
from jaxcheck.loading.source import SourceError, kind_of, read_bytes
from jaxcheck.report.noqa import LINE_BREAK

VERSION = 1
MAX_BYTES = 64 * 2**20  # far above the baseline of any codebase; more is not one jaxcheck wrote
FIELDS = ("path", "code", "message", "source")
_LINE_WORD = re.compile(r"\b(lines?) \d+\b")

Key = tuple[str, str, str, str]  # (path, code, message, source)


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


class Baseline:
    def __init__(self, file: str, texts: dict[str, str]) -> None:
        """`texts`: the text of each file with a finding, by its path as reported."""
        self.file = file
        self.root = os.path.dirname(os.path.abspath(file))
        self._texts = texts
        self._lines: dict[str, list[str]] = {}

    def exists(self) -> bool:
        """Whether the baseline is there; a `BaselineError` when it is there but
        is a symbolic link or not a regular file, which is never read or written."""
        return self._status() is not None

    def _status(self) -> os.stat_result | None:
        """The baseline's own status, links not followed; None when there is none."""
        try:
            status = os.lstat(self.file)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise BaselineError(f"cannot read the baseline {self.file}: {error.strerror or reason(error)}") from None
        if stat.S_ISLNK(status.st_mode):
            raise BaselineError(
                f"the baseline {self.file} is a symbolic link: jaxcheck neither reads nor writes a baseline "
                "through a link; name the file itself"
            )
        if not stat.S_ISREG(status.st_mode):
            raise BaselineError(f"the baseline {self.file} is {kind_of(status.st_mode)}, not a regular file")
        return status

    def key(self, finding: Finding) -> Key:
        message = finding.message_with(
            lambda place: "line #" if place.path == finding.path else self._relative(place.path) + ":#"
        )
        message = _LINE_WORD.sub(r"\1 #", message)
        return self._relative(finding.path), finding.code, message, self._source(finding.path, finding.line)

    def load(self) -> Counter[Key]:
        """The entries of the baseline, each as many times as it is written.

        The file is checked before it is opened (`exists`), and opened so that
        a link put in its place meanwhile is refused and a FIFO cannot block."""
        status = self._status()
        if status is None:
            raise BaselineError(f"cannot read the baseline {self.file}: no such file")
        if status.st_size > MAX_BYTES:
            raise BaselineError(
                f"cannot read the baseline {self.file}: larger than {MAX_BYTES // 2**20} MiB, not a baseline jaxcheck wrote"
            )
        try:
            data = read_bytes(self.file, MAX_BYTES, follow_links=False)
            document = json.loads(data.decode("utf-8"))
        except SourceError as error:
            raise BaselineError(f"cannot read the baseline {self.file}: {str(error).removeprefix('cannot read: ')}") from None
        except RecursionError:
            raise BaselineError(f"cannot read the baseline {self.file}: its JSON is nested too deeply to read") from None
        except ValueError as error:  # not UTF-8, not JSON
            raise BaselineError(f"cannot read the baseline {self.file}: {reason(error)}") from None
        try:
            return Counter(_keys_of(document))
        except ValueError as error:
            raise BaselineError(f"cannot read the baseline {self.file}: {error}") from None

    def write(self, keys: Iterable[Key]) -> int:
        """Write the keys, sorted; how many."""
        entries = [
            {"path": path, "code": code, "message": message, "source": source}
            for path, code, message, source in sorted(keys)
        ]
        document = {
            "about": "jaxcheck baseline: these findings are accepted; `jaxcheck check --baseline` reports only others",
            "version": VERSION,
            "findings": entries,
        }
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        self._replace_with(text.encode("utf-8"))
        return len(entries)

    def _replace_with(self, data: bytes) -> None:
        """Put `data` in place of the baseline at once: written to a new file in
        its folder, then moved over it, so that a failed write (a full disk)
        leaves the old baseline whole and no temporary file behind. The move
        replaces a link put in the baseline's place, never what it points to."""
        old = self._status()
        folder = os.path.dirname(os.path.abspath(self.file))
        temporary = os.path.join(folder, f".{os.path.basename(self.file)}.{secrets.token_hex(6)}.tmp")
        try:
            # O_EXCL: a new file of ours, never one a link names; the umask sets a new baseline's mode.
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        except OSError as error:
            raise BaselineError(f"cannot write the baseline {self.file}: {error.strerror or reason(error)}") from None
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(descriptor, view) :]
            finally:
                os.close(descriptor)
            if old is not None:
                os.chmod(temporary, stat.S_IMODE(old.st_mode))  # a refresh keeps the file's permissions
            os.replace(temporary, self.file)
        except OSError as error:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise BaselineError(f"cannot write the baseline {self.file}: {error.strerror or reason(error)}") from None

    def covers(self, key: Key, checked: set[str]) -> bool:
        """Whether an entry is about a file this run checked (else it is neither
        matched nor stale: the run did not look)."""
        return os.path.normpath(os.path.join(self.root, key[0])) in checked

    def _relative(self, path: str) -> str:
        """A path as the baseline spells it: relative to its folder, with '/'."""
        return os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")

    def _source(self, path: str, line: int) -> str:
        if path not in self._lines:
            self._lines[path] = LINE_BREAK.split(self._texts.get(path, ""))
        lines = self._lines[path]
        return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def folder_outside_projects(file: str, folders: Iterable[str]) -> str | None:
    """The real folder of the baseline `file` when a link among its folders
    leads out of every project around `folders`; None when it may be used.

    `--baseline FILE` names the baseline explicitly, so the path is used as
    given, even outside the project (`--baseline ../base.json`). But a folder
    on that path that is a symbolic link must lead somewhere inside a project:
    a project shipping `meta -> /home/user` would otherwise have
    `--baseline meta/base.json` write to the user's home.
    """
    from jaxcheck.loading.project import find_project

    folder = os.path.dirname(os.path.abspath(file))
    real = os.path.realpath(folder)
    if real == folder:  # no link on the way: the path says where the file is
        return None
    for around in folders:
        root = find_project(around).real_root
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            return None
    return real


def _keys_of(document) -> list[Key]:
    """The entries of a baseline's JSON, each checked to be an object of four
    strings; a `ValueError` says which entry and what is wrong with it."""
    if not isinstance(document, dict) or "version" not in document or "findings" not in document:
        raise ValueError("not a jaxcheck baseline: it should be an object with `version` and `findings`")
    version = document["version"]
    if isinstance(version, bool) or version != VERSION:  # `true == 1` in Python, not in JSON
        raise ValueError(f"a jaxcheck baseline of version {_json_text(version)}; this jaxcheck reads version {VERSION}")
    entries = document["findings"]
    if not isinstance(entries, list):
        raise ValueError(f"`findings` is {_json_text(entries)}, not an array")
    keys = []
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ValueError(f"entry {number} is {_json_text(entry)}, not an object")
        for field in FIELDS:
            if field not in entry:
                raise ValueError(f"entry {number}: no `{field}`")
            if not isinstance(entry[field], str):
                raise ValueError(f"entry {number}: `{field}` is {_json_text(entry[field])}, not a string")
        keys.append((entry["path"], entry["code"], entry["message"], entry["source"]))
    return keys


def _json_text(value) -> str:
    """A JSON value as a message shows it: a scalar as written (a long one cut), a container by its kind."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def split(baseline: Baseline, findings: list[Finding], accepted: Counter[Key]) -> tuple[list[Finding], Counter[Key]]:
    """The findings the baseline does not accept, and its entries no finding
    matched; each entry accepts one finding."""
    left = Counter(accepted)
    new = []
    for finding in findings:
        key = baseline.key(finding)
        if left[key] > 0:
            left[key] -= 1
        else:
            new.append(finding)
    return new, left
