"""Automatic fixes (`jaxcheck check --fix`, `--diff`, `--unsafe-fixes`).

After findings in the pipeline: a fix re-parses a file's text, finds the node
a finding points at and rewrites it with LibCST, keeping comments and
formatting. Fix safety is ruff's: a safe fix never changes what the program
computes; an unsafe one may, and is applied only on request. Loading,
extraction, the model and the rules never import this package.
"""

from jaxcheck.fixes.disk import LeftAlone, read_fixable, replace_file, write_fixed
from jaxcheck.fixes.edits import SAFE, UNSAFE, FixKind
from jaxcheck.fixes.files import FileFixes, fix_files, hidden_unsafe
from jaxcheck.fixes.fixing import FIXERS, Fixed, fix_for, fix_source

__all__ = [
    "FIXERS",
    "SAFE",
    "UNSAFE",
    "FileFixes",
    "FixKind",
    "Fixed",
    "LeftAlone",
    "fix_files",
    "fix_for",
    "fix_source",
    "hidden_unsafe",
    "read_fixable",
    "replace_file",
    "write_fixed",
]
