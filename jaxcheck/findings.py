"""A finding: what a rule reports, where."""

from __future__ import annotations

from dataclasses import dataclass

BAD_INPUT = "JAX000"  # a file that cannot be read, decoded or parsed, or that jaxcheck failed on


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
