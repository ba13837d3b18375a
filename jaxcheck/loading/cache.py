"""Module facts kept on disk, so that a warm run parses nothing it has seen.

Entries are JSON, never pickle: a cache folder in a cloned repository must not
be able to run code. Nor may it change findings: each entry is signed with a
key of this user on this machine (`_user_key`), which no repository can ship,
and an entry whose signature, format, jaxcheck version or key does not match
is ignored and written again. The folder itself is used only when it is a
real folder of this user, made by jaxcheck (it holds jaxcheck's
`.gitignore`): a link, another user's folder or a folder of someone else's
files is left alone. Only files named as jaxcheck names them are ever
removed. Writes go to a temporary file renamed into place, so concurrent
flake8 workers never read half an entry, and old entries are pruned.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import tempfile
import time
import uuid
from functools import lru_cache

from jaxcheck import __version__
from jaxcheck import facts as f
from jaxcheck.findings import Finding
from jaxcheck.loading.codec import decode, decode_finding, encode
from jaxcheck.loading.source import SourceError, read_bytes

FORMAT = 31
_CODE = re.compile(r"JAX\d{3}")
_IGNORE = "# jaxcheck's cache: never commit it\n*\n"
_OURS = re.compile(r"[0-9a-f]{64}\.json|results\.json|loading\.json|valid\.json|stamps\.json|\.tmp-.*")  # what jaxcheck writes here
_MAX_ENTRY = 64 * 2**20
_SLACK = 256  # entries kept beyond twice what a run uses, before old ones are pruned
# Entries are trees that `encode` has just built: no cycle to look for (a quarter of the writing).
_JSON = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def cache_key(digest: str, module: str, is_package: bool) -> str:
    """What facts depend on: the text (its `digest_of`), where it sits, and the extractor's version."""
    material = f"{FORMAT}\0{__version__}\0{module}\0{is_package}\0{digest}"
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


class FactsCache:
    """A folder of entries; `FactsCache(None)` keeps nothing (`--no-cache`).
    `refused` says why a folder given was not used."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        self.refused = ""
        self._valid: set[str] = set()
        self._valid_changed = False
        self._touched: set[str] = set()  # the entries this run read or wrote: not pruned
        self._judgement = ""  # which `loading.json` goes with the findings read or written
        if folder is not None:
            self.refused = _untrusted(folder)
            if self.refused:
                self.folder = None
            else:
                self._valid = self._read_valid()

    def _read_valid(self) -> set[str]:
        entry = self._read("valid.json")
        if isinstance(entry, dict) and entry.get("jaxcheck") == __version__:
            keys = entry.get("valid")
            if isinstance(keys, list) and all(isinstance(key, str) for key in keys):
                return set(keys)
        return set()

    def load(self, key: str) -> tuple[f.ModuleFacts, bool] | None:
        """The facts of the entry and whether LibCST read them (else `ast` did: `store`)."""
        name = key + ".json"
        entry = self._read(name)
        if entry is None:
            return None
        self._touched.add(name)
        try:
            if entry.get("format") == FORMAT and entry.get("jaxcheck") == __version__ and entry.get("key") == key:
                return decode(entry["facts"]), entry["exact"] is True
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, SyntaxError, RecursionError):
            pass
        return None  # stale or corrupt: parsed again, and the entry written over

    def load_results(self) -> tuple[str, dict, dict] | None:
        """The last findings stored, whatever has changed since: the fingerprint
        of the files they were judged on, what the judgement read from
        outside the project's walk (`Workspace.outside_walk`), and the
        findings by path."""
        entry = self._read("results.json")
        try:
            if isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("jaxcheck") == __version__:
                results = {
                    _string(path): ([_sound(decode_finding(raw)) for raw in found], _boolean(failed))
                    for path, (found, failed) in entry["results"].items()
                }
                outside = entry["outside"]
                if not (
                    isinstance(outside["read"], dict)
                    and all(isinstance(digest, str) for digest in outside["read"].values())
                    and _lookups(outside)
                ):
                    return None
                self._judgement = _string(entry["judgement"])
                return _string(entry["fingerprint"]), outside, results
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, SyntaxError, RecursionError):
            pass
        return None

    def load_loading(self) -> dict | None:
        """What decided the files the findings `load_results` gave were judged
        from (`Workspace.loading`): kept apart, as only an edit reads it."""
        entry = self._read("loading.json")
        try:
            if (
                isinstance(entry, dict)
                and entry.get("format") == FORMAT
                and entry.get("jaxcheck") == __version__
                and entry.get("judgement") == self._judgement
            ):
                return _loading(entry["loading"])
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, SyntaxError, RecursionError):
            pass
        return None

    @property
    def keeps_results(self) -> bool:
        """Whether `store_results` keeps anything (not under `--no-cache`)."""
        return self.folder is not None

    def store_results(self, fingerprint: str, results: dict, outside: dict, loading: dict | None = None) -> None:
        """Keep the findings, and `loading` when they were judged again (else the
        one the findings were read with still holds)."""
        if self.folder is None:
            return
        if loading is not None:
            self._judgement = uuid.uuid4().hex
            self._write("loading.json", {"format": FORMAT, "jaxcheck": __version__, "judgement": self._judgement, "loading": loading})
        encoded = {path: ([encode(finding) for finding in found], failed) for path, (found, failed) in results.items()}
        entry = {
            "format": FORMAT,
            "jaxcheck": __version__,
            "fingerprint": fingerprint,
            "results": encoded,
            "outside": outside,
            "judgement": self._judgement,
        }
        self._write("results.json", entry)

    def load_stamps(self) -> dict | None:
        """The stamps and verdicts an earlier run of this jaxcheck kept (`Stamps`), if sound."""
        entry = self._read("stamps.json")
        if not (isinstance(entry, dict) and entry.get("format") == FORMAT and entry.get("jaxcheck") == __version__):
            return None
        files, verdicts = entry.get("files"), entry.get("verdicts")
        if not (
            isinstance(files, dict)
            and isinstance(verdicts, dict)
            and isinstance(entry.get("keywords"), str)
            and isinstance(entry.get("pattern"), str)
            and all(_is_stamp(record) for record in files.values())
            and all(_is_verdicts(found) for found in verdicts.values())
        ):
            return None
        return entry

    def store_stamps(self, entry: dict) -> None:
        self._write("stamps.json", {"format": FORMAT, "jaxcheck": __version__, **entry})

    def known_valid(self, digest: str) -> bool:
        """Whether the text of this digest (`digest_of`) passed Python's parser in an earlier run."""
        return digest[:24] in self._valid

    def mark_valid(self, digest: str) -> None:
        key = digest[:24]
        if self.folder is not None and key not in self._valid:
            self._valid.add(key)
            self._valid_changed = True

    def save(self) -> None:
        """Write what this run learnt beyond facts (the texts known to parse), and prune."""
        if self.folder is None:
            return
        if self._valid_changed:
            self._write("valid.json", {"jaxcheck": __version__, "valid": sorted(self._valid)})
        self._prune()

    def store(self, key: str, facts: f.ModuleFacts, exact: bool) -> None:
        """Keep the facts of a text; `exact`: LibCST read them, not the quicker `ast` reader."""
        if self.folder is None:
            return
        name = key + ".json"
        self._touched.add(name)
        try:
            encoded = encode(facts)
        except RecursionError:  # facts nested past the interpreter's limit: parsed again next time
            return
        self._write(name, {"format": FORMAT, "jaxcheck": __version__, "key": key, "exact": exact, "facts": encoded})

    def _read(self, name: str):
        """An entry's JSON, if this user on this machine signed it; else None.
        Only a regular file is read, and not through a link."""
        if self.folder is None:
            return None
        try:
            data = read_bytes(os.path.join(self.folder, name), _MAX_ENTRY, follow_links=False)
            signature, _, body = data.partition(b"\n")
            if not hmac.compare_digest(signature, _signature(body)):
                return None
            return json.loads(body)
        except (SourceError, ValueError, RecursionError):
            return None

    def _write(self, name: str, entry: dict) -> None:
        if self.folder is None:
            return
        try:
            body = _JSON.encode(entry).encode("utf-8", "surrogatepass")
            _write_atomic(os.path.join(self.folder, name), signed(body))
        except (OSError, ValueError, RecursionError):
            pass

    def _prune(self) -> None:
        """Keep the folder near twice what a run uses: the entries this run did
        not touch (older versions', edited files') go, oldest first."""
        if not self._touched:  # the findings came from `results.json`: what the facts entries are for is unknown
            return
        try:
            names = [name for name in os.listdir(self.folder) if name.endswith(".json") and _OURS.fullmatch(name)]
        except OSError:
            return
        entries = [name for name in names if name not in ("results.json", "loading.json", "valid.json", "stamps.json")]
        excess = len(entries) - (2 * len(self._touched) + _SLACK)
        if excess <= 0:
            return
        untouched = []
        for name in entries:
            if name not in self._touched:
                try:
                    untouched.append((os.lstat(os.path.join(self.folder, name)).st_mtime, name))
                except OSError:
                    pass
        for _, name in sorted(untouched)[:excess]:
            _remove(os.path.join(self.folder, name))


class WarmFactsCache(FactsCache):
    """A cache one long-lived process keeps for many runs (the language server).

    The facts the last two runs used stay decoded in memory, so that an edit
    costs the parse of the text edited rather than the decoding of every other
    file; anything older is let go. So do the stamps, read from disk once. The findings of the last run are kept in
    memory only: they are of texts not saved yet, and `results.json` is the
    command line's.
    """

    def __init__(self, folder: str | None) -> None:
        super().__init__(folder)
        self._current: dict[str, tuple[f.ModuleFacts, bool]] = {}
        self._previous: dict[str, tuple[f.ModuleFacts, bool]] = {}
        self._results: tuple[str, dict, dict] | None = None
        self._loading: dict | None = None
        self._stamps: dict | None = None

    def begin_run(self) -> None:
        """A run starts: what the one before used is kept, anything older let go."""
        self._previous, self._current = self._current, {}
        self._touched = set()

    def load(self, key: str) -> tuple[f.ModuleFacts, bool] | None:
        entry = self._current.get(key) or self._previous.get(key)
        if entry is None:
            entry = super().load(key)
        else:
            self._touched.add(key + ".json")
        if entry is not None:
            self._current[key] = entry
        return entry

    def store(self, key: str, facts: f.ModuleFacts, exact: bool) -> None:
        self._current[key] = (facts, exact)
        super().store(key, facts, exact)

    def load_stamps(self) -> dict | None:
        """The stamps as the last run left them, read from disk once per session:
        a stamp is checked against the file anyway, and a verdict is of a digest."""
        if self._stamps is None:
            self._stamps = super().load_stamps()
        return self._stamps

    def store_stamps(self, entry: dict) -> None:
        super().store_stamps(entry)
        self._stamps = {"format": FORMAT, "jaxcheck": __version__, **entry}

    def load_results(self) -> tuple[str, dict, dict] | None:
        return self._results if self._results is not None else super().load_results()

    def load_loading(self) -> dict | None:
        return self._loading if self._results is not None else super().load_loading()

    @property
    def keeps_results(self) -> bool:
        return True  # in memory, whatever the folder

    def store_results(self, fingerprint: str, results: dict, outside: dict, loading: dict | None = None) -> None:
        loading = self.load_loading() if loading is None else loading  # the one the findings reused came with
        self._results, self._loading = (fingerprint, outside, results), loading


def _untrusted(folder: str) -> str:
    """Why the cache folder must not be used, or "" (made here if missing)."""
    if os.path.islink(folder):
        return f"{folder} is a link"
    try:
        os.mkdir(folder)
        _write_atomic(os.path.join(folder, ".gitignore"), _IGNORE.encode())
    except FileExistsError:
        pass
    except OSError as error:
        return f"{folder} cannot be made: {error.strerror or error}"
    ignore = None
    for _ in range(5):  # another jaxcheck may have made the folder a moment ago, its `.gitignore` still to come
        try:
            status = os.lstat(folder)
            ignore = read_bytes(os.path.join(folder, ".gitignore"), 1024, follow_links=False)
            break
        except (OSError, SourceError):
            time.sleep(0.02)
    if ignore is None:
        return f"{folder} was not made by jaxcheck"
    if not os.path.isdir(folder) or os.path.islink(folder):
        return f"{folder} is not a folder"
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return f"{folder} belongs to another user"
    if ignore != _IGNORE.encode():
        return f"{folder} was not made by jaxcheck"
    return ""


@lru_cache(maxsize=1)
def _user_key() -> bytes:
    """A key only this user on this machine has: no repository can ship
    entries signed with it. It is derived, not stored, so nothing is written
    outside the cache folder."""
    machine = b""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            machine = read_bytes(path, 1024).strip()
            break
        except SourceError:
            continue
    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "")
    material = b"\0".join(
        [b"jaxcheck cache", machine, str(uuid.getnode()).encode(), user.encode(), os.path.expanduser("~").encode("utf-8", "surrogatepass")]
    )
    return hashlib.sha256(material).digest()


def signed(body: bytes) -> bytes:
    """An entry as stored: its signature with this user's key, a newline, the JSON."""
    return _signature(body) + b"\n" + body


def _signature(body: bytes) -> bytes:
    return hmac.new(_user_key(), body, hashlib.sha256).hexdigest().encode()


def _sound(finding: Finding) -> Finding:
    """A finding read back, if it could have been written: a rule's code, a
    place in a file, a message; anything else makes the whole entry invalid."""
    if not (
        _CODE.fullmatch(finding.code)
        and finding.line >= 1
        and finding.column >= 1
        and finding.message.strip()
        and finding.path
        and all(finding.about)
    ):
        raise ValueError("a finding that no run writes")
    return finding


# Asked of each of a project's files and texts on every warm run: spelled out, without a generator.
def _is_stamp(record) -> bool:
    return (
        isinstance(record, list)
        and len(record) == 5
        and type(record[0]) is int
        and type(record[1]) is int
        and type(record[2]) is int
        and type(record[3]) is int
        and isinstance(record[4], str)
    )


def _is_verdicts(found) -> bool:
    return isinstance(found, list) and len(found) == 3 and all(value is None or type(value) is bool for value in found)


def _loading(entry) -> dict:
    """What decided the files a judgement read, if it has the shape `Workspace.loading` gives it."""
    read, bad, offered = entry["read"], entry["bad"], entry["offered"]
    if not (
        isinstance(entry["base"], str)
        and isinstance(entry["listing"], str)
        and isinstance(read, dict)
        and all(isinstance(digest, str) for digest in read.values())
        and isinstance(bad, list)
        and all(path in read for path in bad)
        and isinstance(offered, dict)
        and all(isinstance(names, list) and all(isinstance(name, str) for name in names) for names in offered.values())
        and isinstance(entry["import_roots"], dict)
        and all(isinstance(module, str) for module in entry["import_roots"].values())
        and _lookups(entry)
        and isinstance(entry["walk"], dict)
        and all(type(state) is str for state in entry["walk"].values())
    ):
        raise TypeError("a record no run writes")
    return entry


def _lookups(entry) -> bool:
    """Whether the lookups the walk does not answer (`Workspace.loading`) have their shape."""
    lookups, folders = entry["lookups"], entry["folders"]
    return (
        isinstance(lookups, dict)
        and all(isinstance(paths, list) and all(isinstance(path, str) for path in paths) for paths in lookups.values())
        and isinstance(folders, dict)
        and all(type(held) is bool for held in folders.values())
    )


def _string(value) -> str:
    if type(value) is not str:
        raise TypeError("expected a string")
    return value


def _boolean(value) -> bool:
    if type(value) is not bool:
        raise TypeError("expected a boolean")
    return value


def _write_atomic(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        _remove(temporary)
        raise


def _remove(path: str) -> None:
    """Remove a file jaxcheck writes, and nothing else."""
    if not _OURS.fullmatch(os.path.basename(path)):
        return
    try:
        os.remove(path)
    except OSError:
        pass
