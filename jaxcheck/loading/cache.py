"""Module facts kept on disk, so that a warm run parses nothing it has seen.

Entries are JSON, never pickle: a cache folder in a cloned repository must not
be able to run code. Each entry names its format, jaxcheck version and key;
an entry that does not match, or does not decode into facts, is deleted and
the module parsed again. Writes go to a temporary file renamed into place, so
concurrent flake8 workers never read half an entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile

from jaxcheck import __version__
from jaxcheck import facts as f
from jaxcheck.findings import Finding
from jaxcheck.loading.codec import decode, decode_finding, encode

FORMAT = 21
_CODE = re.compile(r"JAX\d{3}")


def cache_key(text: str, module: str, is_package: bool) -> str:
    """What facts depend on: the text, where it sits, and the extractor's version."""
    material = f"{FORMAT}\0{__version__}\0{module}\0{is_package}\0{text}"
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


class FactsCache:
    """A folder of entries; `FactsCache(None)` keeps nothing (`--no-cache`)."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        self._valid: set[str] = set()
        self._valid_changed = False
        self._valid_path = os.path.join(folder, "valid.json") if folder else ""
        if folder is not None:
            try:
                os.makedirs(folder, exist_ok=True)
                ignore = os.path.join(folder, ".gitignore")
                if not os.path.exists(ignore):
                    _write_atomic(ignore, "# jaxcheck's cache: never commit it\n*\n")
            except OSError:
                self.folder = None
            self._valid = self._read_valid()

    def _read_valid(self) -> set[str]:
        try:
            with open(self._valid_path, encoding="utf-8") as handle:
                entry = json.load(handle)
            if entry.get("jaxcheck") == __version__ and all(isinstance(key, str) for key in entry["valid"]):
                return set(entry["valid"])
        except FileNotFoundError:
            return set()
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            pass
        _remove(self._valid_path)
        return set()

    def load(self, key: str) -> f.ModuleFacts | None:
        if self.folder is None:
            return None
        path = os.path.join(self.folder, key + ".json")
        try:
            with open(path, encoding="utf-8") as handle:
                entry = json.load(handle)
            if entry.get("format") == FORMAT and entry.get("jaxcheck") == __version__ and entry.get("key") == key:
                return decode(entry["facts"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, SyntaxError, RecursionError):
            pass
        _remove(path)  # corrupt or foreign: never trusted
        return None

    def load_results(self, fingerprint: str) -> dict | None:
        """The findings of a project whose files have not changed since they were stored."""
        if self.folder is None:
            return None
        try:
            with open(os.path.join(self.folder, "results.json"), encoding="utf-8") as handle:
                entry = json.load(handle)
            if entry.get("format") == FORMAT and entry.get("fingerprint") == fingerprint:
                return {
                    _string(path): ([_sound(decode_finding(raw)) for raw in found], _boolean(failed))
                    for path, (found, failed) in entry["results"].items()
                }
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, SyntaxError):
            pass
        _remove(os.path.join(self.folder, "results.json"))
        return None

    def store_results(self, fingerprint: str, results: dict) -> None:
        if self.folder is None:
            return
        encoded = {path: ([encode(finding) for finding in found], failed) for path, (found, failed) in results.items()}
        entry = {"format": FORMAT, "fingerprint": fingerprint, "results": encoded}
        try:
            _write_atomic(os.path.join(self.folder, "results.json"), json.dumps(entry))
        except (OSError, ValueError):
            pass

    def known_valid(self, text: str) -> bool:
        """Whether this text passed Python's parser in an earlier run."""
        return self._valid_key(text) in self._valid

    def mark_valid(self, text: str) -> None:
        key = self._valid_key(text)
        if self.folder is not None and key not in self._valid:
            self._valid.add(key)
            self._valid_changed = True

    def save(self) -> None:
        """Write what this run learnt beyond facts (the texts known to parse)."""
        if self.folder is None or not self._valid_changed:
            return
        try:
            _write_atomic(self._valid_path, json.dumps({"jaxcheck": __version__, "valid": sorted(self._valid)}))
        except (OSError, ValueError):
            pass

    @staticmethod
    def _valid_key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]

    def store(self, key: str, facts: f.ModuleFacts) -> None:
        if self.folder is None:
            return
        entry = {"format": FORMAT, "jaxcheck": __version__, "key": key, "facts": encode(facts)}
        try:
            _write_atomic(os.path.join(self.folder, key + ".json"), json.dumps(entry, separators=(",", ":")))
        except (OSError, ValueError, RecursionError):
            pass


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


def _string(value) -> str:
    if type(value) is not str:
        raise TypeError("expected a string")
    return value


def _boolean(value) -> bool:
    if type(value) is not bool:
        raise TypeError("expected a boolean")
    return value


def _write_atomic(path: str, text: str) -> None:
    folder = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        _remove(temporary)
        raise


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
