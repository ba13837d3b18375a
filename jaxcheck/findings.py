"""A finding: what a rule reports, where."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

BAD_INPUT = "JAX000"  # a file that cannot be read, decoded or parsed, or that jaxcheck failed on
# The codes with a fix (`fixes.FIXERS`), known without importing LibCST: a summary asks before it loads the fixes.
FIXABLE_CODES = frozenset({"JAX101", "JAX102", "JAX103", "JAX106", "JAX401"})


def reason(error: BaseException) -> str:
    """What an exception says, for a JAX000: its message, or its type's name
    when it has none (`str(MemoryError())` is empty)."""
    return str(error).strip() or type(error).__name__


def shown(text: str) -> str:
    """The text as a terminal, a log or a CI runner may show it: a byte of a
    file name that is not UTF-8 as `\\xff`, and a control character (a newline
    that would start a line, or a workflow command, of its own; an escape
    sequence) as Python writes it in a string."""
    if text.isprintable():
        return text
    return "".join(character if character.isprintable() else _escaped(character) for character in text)


def _escaped(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # a byte Python could not decode, kept as a lone surrogate
        return f"\\x{code - 0xDC00:02x}"
    return repr(character)[1:-1]


@dataclass(frozen=True, order=True)
class Related:
    """Another place a finding is about, so that an editor shows it there too:
    where the value became static, or where it changes after the first call."""

    path: str
    line: int  # 1-based
    column: int  # 1-based
    note: str  # what happens there, a few words: "made static here"
    cell: int = 0  # in a notebook, the cell `line` is in (as `Finding.cell`); 0 in a Python file


@dataclass(frozen=True, order=True)
class Place:
    """A place a message names (where a value became static, where it changes):
    kept as data, and spelled by each output as it spells places."""

    path: str
    line: int  # 1-based
    column: int = 1  # 1-based
    cell: int = 0  # in a notebook, the cell `line` is in (as `Finding.cell`)

    def spelled(self, within: str) -> str:
        """`line 12` in the file `within`, else `pkg/run.py:12`; a notebook's place by its cell."""
        where = f"cell {self.cell}:{self.line}" if self.cell else str(self.line)
        if self.path == within:
            return where if self.cell else f"line {where}"
        return f"{shown(self.path)}:{where}"


# A place named in a message as rules compose it (`place_named`), and as a finding keeps it: its index in `places`.
_NAMED = re.compile("\ue000([^\ue001]*)\ue001(\\d+)\ue001(\\d+)\ue000")
_INDEXED = re.compile("\ue002(\\d+)\ue002")


def place_named(path: str, line: int, column: int = 1) -> str:
    """A place, in a message being composed: `Finding.of` keeps it as a `Place`."""
    return f"\ue000{path}\ue001{line}\ue001{column}\ue000"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    code: str
    template: str  # the message, each place it names marked by its index in `places`
    # The files whose code makes it a finding (the static uses of a class
    # reported at the class): checking one of them shows it too.
    about: tuple[str, ...] = ()
    # The code breaks the design standard, but shows no evidence that JAX
    # will go wrong: only the strict profile reports it.
    strict_only: bool = False
    # What to write instead, one short sentence (the message says what is wrong).
    fix: str = ""
    related: tuple[Related, ...] = ()
    # JAX raises on every execution of the reported code: no run ever computed
    # anything from it, so a fix there cannot change a result (a safe fix).
    raises: bool = False
    # In a notebook, the cell (1-based among all its cells, as Jupyter and
    # ruff count) and `line` is the line within it; 0 in a Python file.
    cell: int = 0
    places: tuple[Place, ...] = ()  # the places the message names

    @classmethod
    def of(cls, path: str, line: int, column: int, code: str, message: str, **rest) -> Finding:
        """A finding whose message names places as `place_named` wrote them."""
        places: list[Place] = []

        def indexed(match: re.Match) -> str:
            place = Place(match[1], int(match[2]), int(match[3]))
            if place not in places:
                places.append(place)
            return f"\ue002{places.index(place)}\ue002"

        return cls(path, line, column, code, _NAMED.sub(indexed, message), places=tuple(places), **rest)

    @property
    def message(self) -> str:
        """What is wrong, each place named as this finding's path and cells spell it."""
        return self.message_with(lambda place: place.spelled(self.path))

    def message_with(self, spell: Callable[[Place], str]) -> str:
        """The message, each place it names spelled by `spell`."""
        if not self.places:
            return self.template
        return _INDEXED.sub(lambda match: spell(self.places[int(match[1])]), self.template)
