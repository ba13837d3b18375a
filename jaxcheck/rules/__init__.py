"""The rule registry, in code order. Importing it never imports LibCST."""

from __future__ import annotations

from jaxcheck.findings import BAD_INPUT
from jaxcheck.rules.aux_data import ArrayInAuxData, ArrayInStaticField, MutableAuxData, UnstableAuxData
from jaxcheck.rules.base import Rule
from jaxcheck.rules.methods import JitMethodSelfNotStatic, JittedBoundMethod, JittedClosureOverSelf
from jaxcheck.rules.recompiles import JitRecreatedPerCall
from jaxcheck.rules.static_args import IdentityHashStatic, MutableStatic, UnhashableStatic
from jaxcheck.rules.static_fields import BoundMethodField, DynamicChildOfStatic, IncompleteHash

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
    ArrayInAuxData,
    ArrayInStaticField,
    MutableAuxData,
    UnstableAuxData,
    JitRecreatedPerCall,
)


CODES: dict[str, tuple[str, str]] = {
    BAD_INPUT: ("bad-input", "a file could not be read, decoded or parsed, or jaxcheck failed on it"),
    **{rule.code: (rule.name, rule.summary) for rule in RULES},
}
