"""What a module's facts name of other modules, and what they offer to others: how the loader chooses.

A file that can hold a static use (the pre-filter's files) takes part whole:
every global name its code uses may be a class, a base, a transformed
function or an object the analysis needs, so the modules defining them are
loaded. A module loaded only to define a class contributes the shape of its
classes (bases, fields, constructor annotations). And the files that use what
the taking-part files offer (their classes, their decorated functions,
functions that apply a transform, names bound to calls) take part too: they
call, build and change those things.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable, Iterator

from jaxcheck import facts as f
from jaxcheck.loading.prefilter import line_bounds


def named_modules(module: f.ModuleFacts, whole: bool) -> set[str]:
    """The global dotted names the module's facts use (whole), or only those its
    classes are made of (bases, decorators, fields, constructor annotations)."""
    found: set[str] = set()
    for cls in module.classes:
        found.update(ref.name for ref in cls.bases if ref is not None and not ref.is_local)
        found.update(ref.name for _, ref in cls.keywords if ref is not None and not ref.is_local)
        _values(found, cls.decorators)
        for attribute in cls.attributes:
            found.update(ref.name for ref in attribute.annotation if not ref.is_local)
            if attribute.value is not None:
                _values(found, [attribute.value])
    for function in module.functions:
        if whole or function.class_qualname and function.name == "__init__":
            for parameter in function.parameters:
                found.update(ref.name for ref in parameter.annotation if not ref.is_local)
        if whole:
            _values(found, function.decorators)
            _values(found, function.returns)
            # The module-level values a jitted body may bake in (JAX204).
            found.update(ref.name for ref in function.outer_reads if not ref.is_local)
    if whole:
        _values(found, (call for _, call in module.calls))
        _values(found, (binding.value for binding in module.bindings))
        found.update(write.target.name for write in module.attribute_writes if not write.target.is_local)
    return found


def _values(found: set[str], values: Iterable[f.Value]) -> None:
    """The global names of the values and all they hold."""
    for current in _held(values):
        ref = current.ref
        if ref is not None and not ref.is_local:
            found.add(ref.name)


def _held(values: Iterable[f.Value]) -> Iterator[f.Value]:
    """The values and every value they hold: one stack for all, not a generator
    per value (this is asked of every call and binding of every module loaded)."""
    stack = list(values)
    while stack:
        current = stack.pop()
        yield current
        if current.args:
            stack.extend(current.args)
        if current.keywords:
            stack.extend(item for _, item in current.keywords)
        if current.func is not None:
            stack.append(current.func)


def offered_names(module: f.ModuleFacts) -> set[str]:
    """The module-level names other files would use to take part: classes,
    decorated functions, functions that apply a transform, names bound to calls."""
    names = {cls.name for cls in module.classes if cls.qualname == f"{module.module}.{cls.name}"}
    applying = {function for function, call in module.calls if _applies_transform(call)}
    for function in module.functions:
        if function.qualname != f"{module.module}.{function.name}":
            continue
        if function.decorators or any(name == function.qualname or name.startswith(function.qualname + ".") for name in applying):
            names.add(function.name)
    for binding in module.bindings:
        if not binding.ref.is_local and binding.value.kind == f.CALL and binding.ref.name.count(".") == module.module.count(".") + 1:
            names.add(binding.ref.last)
    return names


def _applies_transform(call: f.Value) -> bool:
    """Whether the call, or a value it holds, calls or names a transform."""
    for current in _held([call]):
        ref = current.ref
        if ref is not None and (current.kind == f.CALL or current.kind == f.NAME) and ref.last in f.TRANSFORM_NAMES:
            return True
    return False


class Reexports:
    """Names with re-exports followed, as far as the modules loaded so far tell:
    the module a name is re-exported from is needed as well as the one
    defining it.

    Each wave of loading asks again of every name read so far (twenty
    thousand on the speed corpus), while the processes that read files wait:
    a name's chain is kept, and followed again only once a module it looked
    for and did not find is loaded and imports the part the chain looked up
    there (a loaded module's imports never change)."""

    def __init__(self, import_roots: dict[str, str], longest: int) -> None:
        self._roots = import_roots
        self._longest = longest  # a chain longer than any real re-export (or one that grows: `from . import x as y`) is cut
        self._exports: dict[str, dict[str, str]] = {}  # module -> what it imports, by the name bound
        self._chains: dict[str, list[str]] = {}  # name -> the names it stands for, itself (made a project name) first
        # A module not loaded -> (the part after it a chain looked up there, the name of that chain).
        self._waiting: dict[str, list[tuple[str, str]]] = defaultdict(list)

    def add(self, modules: Iterable[f.ModuleFacts]) -> list[str]:
        """Modules loaded since: the chains that looked in them for a name they
        import are dropped, to be followed again; their names. A second file
        of a module drops every chain and names none: each file of the kind
        would follow them all again, where `followed` does it once."""
        dropped: list[str] = []
        for module in modules:
            imports = dict(module.imports)
            known = self._exports.get(module.module)
            if known is None:
                for part, name in self._waiting.pop(module.module, ()):
                    if part in imports and self._chains.pop(name, None) is not None:
                        dropped.append(name)
            elif known != imports:  # a second file of the module, which replaces the first: any chain may have read it
                self._chains.clear()
                self._waiting.clear()
            self._exports[module.module] = imports
        return dropped

    def followed(self, names: Iterable[str]) -> set[str]:
        """The names, and every name their chains of re-exports pass through."""
        found = set(names)
        self.follow(found)
        chains = self._chains
        for name in found.copy():
            found.update(chains[name])
        return found

    def follow(self, names: Iterable[str]) -> list[str]:
        """The chains of the names not followed yet (or since a module they
        looked in was loaded), followed now: those names and their steps."""
        chains = self._chains
        new: list[str] = []
        for name in names:
            if name not in chains:
                chain = chains[name] = self._chain(name)
                new.append(name)
                new.extend(chain)
        return new

    def _chain(self, start: str) -> list[str]:
        """Each step replaces a module's name (the longest prefix that imports
        the next part) by what it imports."""
        exports, roots = self._exports, self._roots
        name = f.project_name(start, roots)
        chain = [name]
        for _ in range(self._longest):
            parts = name.split(".")
            for end in range(len(parts) - 1, 0, -1):
                prefix = ".".join(parts[:end])
                imports = exports.get(prefix)
                if imports is None:
                    self._waiting[prefix].append((parts[end], start))
                    continue
                target = imports.get(parts[end])
                if target is not None:
                    name = f.project_name(".".join([target, *parts[end + 1 :]]), roots)
                    break
            else:
                break
            if name in chain:
                break
            chain.append(name)
        return chain


_WORD = re.compile(r"\w+")


class Users:
    """Which files use what the taking-part files offer (`offered`: each
    module's offered names): those that import an offered name (on the line
    of its `import`, or in the parenthesized list after it) or read it off
    its module (`settings.Config`)."""

    def __init__(self, offered: dict[str, set[str]]) -> None:
        names = set().union(*offered.values())
        self.modules = {module.rpartition(".")[2] for module, found in offered.items() if found}
        self.key = f"{sorted(names)}\0{sorted(self.modules)}"  # what the verdicts are kept under
        self._words = frozenset(name for name in names if _WORD.fullmatch(name))
        # An identifier that is not one run of `\w` (one with a combining mark) is always looked for.
        self._others = names - self._words

    def used_by(self, text: str) -> bool:
        r"""Whether the text uses an offered name.

        Every use holds the name as a word (`\bName\b`). One pattern of
        thousands of names would try each at every word of every file; a
        name that is one run of `\w` can only be found where the text has it
        as a word, so the pattern holds only those the text has: its matches
        are the same, found at the cost of listing the text's words.
        """
        if "import" not in text:
            return False
        present = self._words.intersection(_WORD.findall(text)) | self._others
        if not present:
            return False
        pattern = re.compile(r"\b(?:%s)\b" % "|".join(sorted(map(re.escape, present))))
        return _imports_or_reads(text, pattern, self.modules)


_LOOKBACK = 2_000  # how far back an import list's `import` is looked for


def _imports_or_reads(text: str, pattern: re.Pattern[str], modules: set[str]) -> bool:
    """Whether the text imports a name the pattern finds (on the line of its `import`,
    or in the parenthesized list after it), or reads it off one of the modules (`settings.Config`).

    The matches are visited in order, each line's `import` and each import
    list's brackets looked up once: time is linear in the text, however long its lines."""
    longest = max(map(len, modules), default=0)
    imports = [found.start() for found in re.finditer("import", text)]
    brackets: dict[int, tuple[int, int]] = {}  # an `import`'s position -> its first `(` and `)` after it
    latest = -1  # index in `imports` of the last `import` before the match
    line_start = line_end = line_import = -1
    for match in pattern.finditer(text):
        start = match.start()
        if start > line_end:
            line_start, line_end = line_bounds(text, start)
            line_import = text.find("import", line_start, line_end)
        if 0 <= line_import and line_import + len("import") <= start:
            return True
        if start and text[start - 1] == ".":
            owner = start - 1
            while owner > 0 and start - owner <= longest + 1 and (text[owner - 1].isalnum() or text[owner - 1] == "_"):
                owner -= 1
            if text[owner:start - 1] in modules:
                return True
        while latest + 1 < len(imports) and imports[latest + 1] + len("import") <= start:
            latest += 1
        if latest >= 0 and imports[latest] >= start - _LOOKBACK:
            opened = imports[latest]
            if opened not in brackets:
                bounded = opened + _LOOKBACK + len("import")
                brackets[opened] = (text.find("(", opened, bounded), text.find(")", opened, bounded))
            open_at, close_at = brackets[opened]
            if 0 <= open_at < start and not 0 <= close_at < start:
                return True
    return False
