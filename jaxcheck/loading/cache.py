"""What a run keeps for the next, in the user's cache folder: never in the project.

A project's cache is a folder of its own under the user's cache folder
(`JAXCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/jaxcheck` or the platform's
equivalent), named after the project's real path. A repository cannot ship
entries there, so they are trusted as the user's own files are: they are
pickles, Python's own format for its objects. The folder is used only when
it belongs to this user and no one else may write to it.

It holds the facts of each text read (`facts/`, by the digest of the text and
where it sits), the stamps that tell a file unchanged without reading it,
the texts Python was seen to accept, and the findings of the last run with
the fingerprint of everything they depend on. Each entry is written to a
temporary file renamed into place: a killed run or a full disk leaves the
old entry or none, never half of one, and what it leaves behind is removed
by a later run.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
import time

from jaxcheck import __version__
from jaxcheck import facts as f
from jaxcheck.findings import Finding
from jaxcheck.loading.source import read_bytes

# What an entry depends on besides its own key: the pickled classes change with jaxcheck and Python.
_EDITION = f"{__version__}-facts{f.FACTS_VERSION}-py{sys.version_info[0]}.{sys.version_info[1]}"
_TEMPORARY = ".tmp-"
_STALE_TEMPORARY = 3600  # seconds: a temporary file older than this was left by a run that died
_SLACK = 256  # facts entries kept beyond twice what a run uses, before the oldest are pruned
_RACY_NS = 2 * 10**9  # a stamp this close to the start of the run that took it may hide an edit
_MAX_ENTRY = 1 << 30  # far above any project's findings or module's facts


def user_cache_root() -> str:
    """Where jaxcheck keeps its caches for this user."""
    chosen = os.environ.get("JAXCHECK_CACHE_DIR")
    if chosen:
        return os.path.abspath(os.path.expanduser(chosen))
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
        return os.path.join(base, "jaxcheck", "Cache")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/jaxcheck")
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):
        base = os.path.expanduser("~/.cache")
    return os.path.join(base, "jaxcheck")


def project_cache_folder(root: str) -> str:
    """The cache folder of the project at `root`: one per real path of a project."""
    real = os.path.realpath(root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    name = "".join(char if char.isalnum() or char in "-_." else "_" for char in os.path.basename(real))[:40]
    return os.path.join(user_cache_root(), _EDITION, f"{name}-{digest}")


def stamp_of(status: os.stat_result) -> tuple[int, int, int, int]:
    """What `stat` says of a file that changes when its text does: the change
    time and inode too, as an edit can keep the size and set the modification
    time back (git's index does the same)."""
    return (status.st_mtime_ns, status.st_size, status.st_ctime_ns, status.st_ino)


def digest_of(text: str) -> str:
    """The digest a text is known by: in stamps, facts keys and syntax verdicts."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def facts_key(digest: str, module: str, is_package: bool) -> str:
    """What a module's facts depend on: its text and where it sits."""
    return hashlib.sha256(f"{module}\0{is_package}\0{digest}".encode("utf-8", "surrogatepass")).hexdigest()


class Cache:
    """One project's cache; `Cache(None)` keeps nothing (`--no-cache`).

    `refused` says why a folder was not used. With `remember`, the facts
    read and written stay in memory for the next run too (the language
    server's long-lived cache): an edit then costs the parse of what changed.
    """

    def __init__(self, folder: str | None, remember: bool = False) -> None:
        self.folder = folder
        self.refused = ""
        self._remember = remember
        self._started = time.time_ns()  # before any file is read: an edit after it is newer than the racy bound
        self._memory: dict[str, f.ModuleFacts] = {}
        self._touched: set[str] = set()  # the facts entries this run read or wrote: not pruned
        self._stamps: dict[str, tuple[int, int, int, int, str]] = {}  # path -> (*stamp_of, digest)
        self._stamps_changed = False
        self._valid: set[str] = set()  # digests of texts Python accepts
        self._valid_changed = False
        if folder is not None:
            self.refused = _made_safe(folder)
            if self.refused:
                self.folder = None
            else:
                self._stamps = _load(os.path.join(folder, "stamps"), dict) or {}
                self._valid = _load(os.path.join(folder, "valid"), set) or set()

    @property
    def keeps(self) -> bool:
        return self.folder is not None

    def begin_run(self) -> None:
        """A new run of a long-lived cache: stamps are taken afresh."""
        self._started = time.time_ns()
        self._touched = set()

    # Stamps: a file's digest without reading it.

    def known_digest(self, path: str) -> str | None:
        """The digest of the file's text when its stamp says it is unchanged since it was read."""
        record = self._stamps.get(path)
        if record is None:
            return None
        try:
            status = os.stat(path)
        except OSError:
            return None
        if stamp_of(status) != record[:4]:
            return None
        return record[4]

    def observe(self, path: str, status: os.stat_result | None, digest: str) -> None:
        """The file was read (`status` taken before): its stamp kept unless it was too fresh to trust."""
        if status is None or not stat.S_ISREG(status.st_mode) or status.st_mtime_ns >= self._started - _RACY_NS:
            if self._stamps.pop(path, None) is not None:
                self._stamps_changed = True
            return
        record = (*stamp_of(status), digest)
        if self._stamps.get(path) != record:
            self._stamps[path] = record
            self._stamps_changed = True

    # Syntax: texts Python accepts.

    def known_valid(self, digest: str) -> bool:
        return digest in self._valid

    def mark_valid(self, digest: str) -> None:
        if self.folder is not None and digest not in self._valid:
            self._valid.add(digest)
            self._valid_changed = True

    # Facts.

    def facts(self, key: str) -> f.ModuleFacts | None:
        found = self._memory.get(key)
        if found is None and self.folder is not None:
            found = _load(os.path.join(self.folder, "facts", key), f.ModuleFacts)
        if found is not None:
            self._touched.add(key)
            if self._remember:
                self._memory[key] = found
        return found

    def store_facts(self, key: str, facts: f.ModuleFacts) -> None:
        self._touched.add(key)
        if self._remember:
            self._memory[key] = facts
        if self.folder is not None:
            _store(os.path.join(self.folder, "facts", key), facts)

    # Findings.

    def results(self, fingerprint: str) -> dict | None:
        """The findings stored under this fingerprint (of everything they depend on)."""
        if self.folder is None:
            return None
        stored = _load(os.path.join(self.folder, "results"), tuple)
        if stored is None or len(stored) != 2 or stored[0] != fingerprint or not _findings_by_path(stored[1]):
            return None
        return stored[1]

    def store_results(self, fingerprint: str, results: dict) -> None:
        if self.folder is not None:
            _store(os.path.join(self.folder, "results"), (fingerprint, results))

    def save(self) -> None:
        """Write what this run learnt beyond facts and findings, and prune."""
        if self._remember:  # what the last run used stays in memory; the rest is let go
            self._memory = {key: facts for key, facts in self._memory.items() if key in self._touched}
        if self.folder is None:
            return
        if self._stamps_changed:
            _store(os.path.join(self.folder, "stamps"), self._stamps)
            self._stamps_changed = False
        if self._valid_changed:
            _store(os.path.join(self.folder, "valid"), self._valid)
            self._valid_changed = False
        self._prune()

    def _prune(self) -> None:
        """Keep the facts near twice what a run uses: the entries this run did
        not touch go, oldest first; temporary files a dead run left go too."""
        folder = os.path.join(self.folder, "facts")
        try:
            names = os.listdir(folder)
        except OSError:
            return
        now = time.time()
        entries = []
        for name in names:
            path = os.path.join(folder, name)
            try:
                modified = os.lstat(path).st_mtime
            except OSError:
                continue
            if name.startswith(_TEMPORARY):
                if now - modified > _STALE_TEMPORARY:
                    _remove(path)
            elif name not in self._touched and self._touched:
                entries.append((modified, path))
        excess = len(entries) + len(self._touched) - (2 * len(self._touched) + _SLACK)
        for _, path in sorted(entries)[: max(excess, 0)]:
            _remove(path)


def _findings_by_path(results) -> bool:
    """Whether stored findings have the shape a run gives them: path -> (findings, whether jaxcheck failed)."""
    return isinstance(results, dict) and all(
        isinstance(path, str)
        and isinstance(entry, tuple)
        and len(entry) == 2
        and isinstance(entry[0], list)
        and all(isinstance(finding, Finding) for finding in entry[0])
        and isinstance(entry[1], bool)
        for path, entry in results.items()
    )


def _made_safe(folder: str) -> str:
    """Why the folder cannot be used, or "" (made here, with its parents, if
    missing). It is looked at before anything is made in it: a link there is
    never followed."""
    try:
        os.makedirs(os.path.dirname(folder), mode=0o700, exist_ok=True)
    except OSError as error:
        return f"{os.path.dirname(folder)} cannot be made: {error.strerror or error}"
    for path in (folder, os.path.join(folder, "facts")):
        if not os.path.lexists(path):
            try:
                os.mkdir(path, mode=0o700)
            except FileExistsError:
                pass  # another run made it a moment ago
            except OSError as error:
                return f"{path} cannot be made: {error.strerror or error}"
        try:
            status = os.lstat(path)
        except OSError as error:
            return f"{path} cannot be read: {error.strerror or error}"
        if not stat.S_ISDIR(status.st_mode):
            return f"{path} is not a folder"
        if hasattr(os, "getuid") and status.st_uid != os.getuid():
            return f"{path} belongs to another user"
        if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return f"others may write to {path}"
    _remove_stale_temporaries(folder)
    return ""


def _remove_stale_temporaries(folder: str) -> None:
    now = time.time()
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(_TEMPORARY):
            path = os.path.join(folder, name)
            try:
                if now - os.lstat(path).st_mtime > _STALE_TEMPORARY:
                    _remove(path)
            except OSError:
                pass


def _load(path: str, kind: type):
    """The object pickled at `path` if it is of `kind`; else None (missing,
    damaged, or not a regular file: it is written again). A link, a FIFO or a
    device in its place is never opened for reading."""
    try:
        found = pickle.loads(read_bytes(path, _MAX_ENTRY, follow_links=False))
    except Exception:  # a damaged entry can raise nearly anything while unpickling
        return None
    return found if isinstance(found, kind) else None


def _store(path: str, value: object) -> None:
    """Write the entry whole or not at all: a full disk leaves the cache as it was."""
    folder = os.path.dirname(path)
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=_TEMPORARY)
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, RecursionError, ValueError):
        _remove(temporary)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
