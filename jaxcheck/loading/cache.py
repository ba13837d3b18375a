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
from jaxcheck.findings import Finding

FORMAT = 7


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
                return _module(entry["facts"])
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
                    path: ([Finding(*fields[:5], tuple(fields[5])) for fields in found], failed)
                    for path, (found, failed) in entry["results"].items()
                }
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            pass
        _remove(os.path.join(self.folder, "results.json"))
        return None

    def store_results(self, fingerprint: str, results: dict) -> None:
        if self.folder is None:
            return
        encoded = {
            path: ([[x.path, x.line, x.column, x.code, x.message, list(x.about)] for x in found], failed)
            for path, (found, failed) in results.items()
        }
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
        entry = {"format": FORMAT, "jaxcheck": __version__, "key": key, "facts": _encode(facts)}
        try:
            _write_atomic(os.path.join(self.folder, key + ".json"), json.dumps(entry, separators=(",", ":")))
        except (OSError, ValueError, RecursionError):
            pass


def _encode(value):
    """Facts as nested JSON lists, each dataclass its fields in order."""
    if isinstance(value, f.Value):
        return [
            value.kind,
            _encode(value.location),
            value.ref,
            [_encode(arg) for arg in value.args],
            [[key, _encode(item)] for key, item in value.keywords],
            _encode_literal(value.literal),
            _encode(value.func) if value.func is not None else None,
        ]
    if dataclasses.is_dataclass(value):
        return [_encode(getattr(value, field.name)) for field in dataclasses.fields(value)]
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def _encode_literal(literal):
    """JSON keeps ints, strings and finite floats; the rest (bytes, tuples, complex) go as their repr."""
    if literal is None or type(literal) in (int, str, bool):
        return literal
    if type(literal) is float and literal == literal and abs(literal) != float("inf"):
        return literal
    return {"r": repr(literal)}


# Decoders, one per facts type, in field order (a test round-trips real facts).


def _location(raw) -> f.Location:
    return f.Location(raw[0], raw[1])


_VALUE_FIELDS = tuple(field.name for field in dataclasses.fields(f.Value))
_LOCATION_FIELDS = tuple(field.name for field in dataclasses.fields(f.Location))


def _value(raw) -> f.Value:
    # Values are most of an entry. A frozen dataclass's __init__ sets each field
    # through object.__setattr__; filling the instance dict directly builds the
    # same object (same fields, ==, hash) several times faster.
    literal = raw[5]
    if type(literal) is dict:
        literal = ast.literal_eval(literal["r"])
    location = object.__new__(f.Location)
    location.__dict__.update(zip(_LOCATION_FIELDS, raw[1]))
    value = object.__new__(f.Value)
    value.__dict__.update(
        zip(
            _VALUE_FIELDS,
            (
                raw[0],
                location,
                raw[2],
                tuple(map(_value, raw[3])) if raw[3] else (),
                tuple((key, _value(item)) for key, item in raw[4]) if raw[4] else (),
                literal,
                _value(raw[6]) if raw[6] is not None else None,
            ),
        )
    )
    return value


def _function(raw) -> f.FunctionFacts:
    return f.FunctionFacts(
        raw[0],
        raw[1],
        _location(raw[2]),
        tuple(f.Parameter(name, kind, tuple(annotation)) for name, kind, annotation in raw[3]),
        tuple(map(_value, raw[4])),
        tuple(
            f.ParameterUse(name, tuple(attributes), opaque, tuple(passed_to))
            for name, attributes, opaque, passed_to in raw[5]
        ),
        tuple(map(_value, raw[6])),
        raw[7],
        raw[8],
        tuple(
            f.LocalUse(name, _location(location), depth, tuple(calls), escapes)
            for name, location, depth, calls, escapes in raw[9]
        ),
        tuple(raw[10]),
    )


def _class(raw) -> f.ClassFacts:
    return f.ClassFacts(
        raw[0],
        raw[1],
        _location(raw[2]),
        tuple(raw[3]),
        tuple((key, ref) for key, ref in raw[4]),
        tuple(map(_value, raw[5])),
        tuple(raw[6]),
        tuple(
            f.ClassAttribute(name, _location(location), tuple(annotation), _value(value) if value is not None else None)
            for name, location, annotation, value in raw[7]
        ),
    )


def _module(raw) -> f.ModuleFacts:
    return f.ModuleFacts(
        raw[0],
        raw[1],
        tuple(map(_class, raw[2])),
        tuple(map(_function, raw[3])),
        tuple((function, _value(call)) for function, call in raw[4]),
        tuple(f.Binding(ref, _value(value), _location(location)) for ref, value, location in raw[5]),
        tuple(
            f.AttributeWrite(target, attribute, _location(location), function, _value(value) if value is not None else None)
            for target, attribute, location, function, value in raw[6]
        ),
        tuple((name, ref) for name, ref in raw[7]),
        tuple(f.Closure(_location(location), tuple(reads)) for location, reads in raw[8]),
        tuple(map(_location, raw[9])),
        tuple(map(_location, raw[10])),
        tuple((function, ref) for function, ref in raw[11]),
    )


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
