"""A finding: what a rule reports, where."""

from __future__ import annotations

from dataclasses import dataclass

BAD_INPUT = "JAX000"  # a file that cannot be read, decoded or parsed, or that jaxcheck failed on
# The codes with a fix (`fixes.FIXERS`), known without importing LibCST: a summary asks before it loads the fixes.
FIXABLE_CODES = frozenset({"JAX101", "JAX102", "JAX103", "JAX106", "JAX401"})


def reason(error: BaseException) -> str:
    """What an exception says, for a JAX000: its message, or its type's name
    when it has none (`str(MemoryError())` is empty)."""
    return str(error).strip() or type(error).__name__


@dataclass(frozen=True, order=True)
class Related:
    """Another place a finding is about, so that an editor shows it there too:
    where the value became static, or where it changes after the first call."""

    path: str
    line: int  # 1-based
    column: int  # 1-based
    note: str  # what happens there, a few words: "made static here"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int  # 1-based
    column: int  # 1-based
    code: str
    message: str
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
