"""Module facts kept on disk, so that a warm run parses nothing it has seen.

Entries are JSON, never pickle: a cache folder in a cloned repository must not
be able to run code. Each entry names its format, jaxcheck version and key;
an entry that does not match, or does not decode into facts, is deleted and
the module parsed again. Writes go to a temporary file renamed into place, so
concurrent flake8 workers never read half an entry.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import os
import tempfile

from jaxcheck import __version__
from jaxcheck import facts as f

FORMAT = 1
_TYPES = {
    cls.__name__: cls
    for cls in (
        f.Location,
        f.Value,
        f.Parameter,
        f.ParameterUse,
        f.FunctionFacts,
        f.Binding,
        f.AttributeWrite,
        f.ClassAttribute,
        f.ClassFacts,
        f.ModuleFacts,
    )
}
_FIELDS = {name: tuple(field.name for field in dataclasses.fields(cls)) for name, cls in _TYPES.items()}


def cache_key(text: str, module: str, is_package: bool) -> str:
    """What facts depend on: the text, where it sits, and the extractor's version."""
    material = f"{FORMAT}\0{__version__}\0{module}\0{is_package}\0{text}"
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


class FactsCache:
    """A folder of entries; `FactsCache(None)` keeps nothing (`--no-cache`)."""

    def __init__(self, folder: str | None) -> None:
        self.folder = folder
        if folder is not None:
            try:
                os.makedirs(folder, exist_ok=True)
                ignore = os.path.join(folder, ".gitignore")
                if not os.path.exists(ignore):
                    _write_atomic(ignore, "# jaxcheck's cache: never commit it\n*\n")
            except OSError:
                self.folder = None

    def load(self, key: str) -> f.ModuleFacts | None:
        if self.folder is None:
            return None
        path = os.path.join(self.folder, key + ".json")
        try:
            with open(path, encoding="utf-8") as handle:
                entry = json.load(handle, object_hook=_decode)
            if entry.get("format") == FORMAT and entry.get("jaxcheck") == __version__ and entry.get("key") == key:
                facts = entry["facts"]
                if isinstance(facts, f.ModuleFacts):
                    return facts
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError, SyntaxError, RecursionError):
            pass
        _remove(path)  # corrupt or foreign: never trusted
        return None

    def store(self, key: str, facts: f.ModuleFacts) -> None:
        if self.folder is None:
            return
        entry = {"format": FORMAT, "jaxcheck": __version__, "key": key, "facts": _encode(facts)}
        try:
            _write_atomic(os.path.join(self.folder, key + ".json"), json.dumps(entry, separators=(",", ":")))
        except (OSError, ValueError, RecursionError):
            pass


def _encode(value):
    if dataclasses.is_dataclass(value):
        name = type(value).__name__
        fields = []
        for field in _FIELDS[name]:
            item = getattr(value, field)
            fields.append({"r": repr(item)} if field == "literal" and item is not None else _encode(item))
        return {"_": name, "v": fields}
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _decode(record: dict):
    if "r" in record and len(record) == 1:
        return {"literal": ast.literal_eval(record["r"])}
    if "_" not in record:
        return record
    values = [_tuples(item) for item in record["v"]]
    values = [item["literal"] if isinstance(item, dict) and set(item) == {"literal"} else item for item in values]
    return _TYPES[record["_"]](*values)


def _tuples(value):
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
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
