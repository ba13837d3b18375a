"""JAX106 at a call: a list, set or dict written at a static position becomes
its hashable counterpart.

A list or set becomes a tuple or frozenset, which a function that reads its
argument (iterates, indexes, takes `len`, tests `in`) treats the same. Where
JAX raises on the original (`jax.jit` and every transform but
`jax.checkpoint`), no run of the program ever computed anything from that
call, so the fix is safe; under `jax.checkpoint` the original runs, and a
function that changes its argument in place would now fail: unsafe. A dict
becomes a tuple of (key, value) pairs: the function must read it with
`dict(pairs)`, so that fix is always unsafe.
"""

from __future__ import annotations

import libcst as cst

from jaxcheck.findings import Finding
from jaxcheck.fixes.edits import SAFE, UNSAFE, Edit, FixKind, Located

_LITERALS = (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp)


def literal_fix(finding: Finding, located: Located) -> Edit | None:
    nodes = located.at(finding.line, finding.column, _LITERALS)
    if not nodes:
        return None
    node = nodes[0]
    if isinstance(node, cst.Dict) and any(isinstance(element, cst.StarredDictElement) for element in node.elements):
        return None  # `{**a, "b": 1}`: no pairs to write
    if isinstance(node, cst.Dict):
        return Edit(FixKind(UNSAFE, "Replace the dict with a tuple of (key, value) pairs"), node, _pairs)
    if isinstance(node, (cst.List, cst.ListComp)):
        title = "Replace the list with a tuple"
    else:
        title = "Replace the set with a frozenset"
    return Edit(FixKind(SAFE if finding.raises else UNSAFE, title), node, _hashable)


def _hashable(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.List):
        elements = list(node.elements)
        if len(elements) == 1 and elements[0].comma == cst.MaybeSentinel.DEFAULT:
            elements[0] = elements[0].with_changes(comma=cst.Comma())  # `[x]` -> `(x,)`
        return cst.Tuple(
            elements=elements,
            lpar=[*node.lpar, cst.LeftParen(whitespace_after=node.lbracket.whitespace_after)],
            rpar=[cst.RightParen(whitespace_before=node.rbracket.whitespace_before), *node.rpar],
        )
    if isinstance(node, cst.Set):
        argument = node.with_changes(lpar=[], rpar=[])
    else:  # `[f(x) for x in xs]` -> `tuple(f(x) for x in xs)`
        argument = cst.GeneratorExp(elt=node.elt, for_in=node.for_in, lpar=[], rpar=[])
    name = "tuple" if isinstance(node, cst.ListComp) else "frozenset"
    return cst.Call(func=cst.Name(name), args=[cst.Arg(argument)], lpar=node.lpar, rpar=node.rpar)


def _pairs(node: cst.Dict) -> cst.Tuple:
    elements = []
    for element in node.elements:
        pair = cst.Tuple(
            elements=[
                cst.Element(element.key, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                cst.Element(element.value),
            ]
        )
        comma = element.comma
        elements.append(cst.Element(pair, comma=comma))
    if len(elements) == 1 and elements[0].comma == cst.MaybeSentinel.DEFAULT:
        elements[0] = elements[0].with_changes(comma=cst.Comma())
    return cst.Tuple(
        elements=elements,
        lpar=[*node.lpar, cst.LeftParen(whitespace_after=node.lbrace.whitespace_after)],
        rpar=[cst.RightParen(whitespace_before=node.rbrace.whitespace_before), *node.rpar],
    )
