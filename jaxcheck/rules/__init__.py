"""The rule registry, in code order. Importing it never imports LibCST."""

from __future__ import annotations

from jaxcheck.findings import BAD_INPUT  # re-exported: the code of bad input
from jaxcheck.rules.aux_data import ArrayInAuxData, ArrayInStaticField, MutableAuxData, UnstableAuxData
from jaxcheck.rules.bad_input import BadInput
from jaxcheck.rules.base import Rule
from jaxcheck.rules.globals import JittedReadsChangingGlobal
from jaxcheck.rules.methods import JitMethodSelfNotStatic, JittedBoundMethod, JittedClosureOverSelf
from jaxcheck.rules.recompiles import JitRecreatedPerCall, StaticArgumentVaries
from jaxcheck.rules.static_args import IdentityHashStatic, MutableStatic, UnhashableStatic
from jaxcheck.rules.static_fields import BoundMethodField, DynamicChildOfStatic, IncompleteHash
from jaxcheck.rules.unused_noqa import UNUSED_NOQA, UnusedNoqa

RULES: tuple[type[Rule], ...] = (
    MutableStatic,
    IdentityHashStatic,
    IncompleteHash,
    DynamicChildOfStatic,
    BoundMethodField,
    UnhashableStatic,
    JittedBoundMethod,
    JitMethodSelfNotStatic,
    JittedClosureOverSelf,
    JittedReadsChangingGlobal,
    ArrayInAuxData,
    ArrayInStaticField,
    MutableAuxData,
    UnstableAuxData,
    JitRecreatedPerCall,
    StaticArgumentVaries,
)


# Every code with a page, in code order: JAX000 is the loader's and JAX001 the
# noqa comments' (jaxcheck.report.noqa), documented like rules.
DOCUMENTED: tuple[type, ...] = (BadInput, UnusedNoqa, *RULES)

CODES: dict[str, tuple[str, str]] = {documented.code: (documented.name, documented.summary) for documented in DOCUMENTED}
NAMES: dict[str, str] = {name: code for code, (name, _) in CODES.items()}
# Reported only when `select` or `extend-select` names them exactly: no prefix turns them on.
EXPLICIT_ONLY = frozenset({UNUSED_NOQA})


def code_of(selector: str) -> str:
    """A code or prefix as given (`JAX101`, `JAX1`), or the code of a rule's name (`mutable-static`)."""
    return NAMES.get(selector.lower(), selector)
