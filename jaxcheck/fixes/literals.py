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

JAX raises only if the call reaches the jitted function. A name bound more
than once in its scope (assigned again, a loop's target, `:=`, a `def` or an
import over it, a `global` statement's assignment in some function) may hold
a plain function at the call, which runs with the list and may change it:
the fix is then unsafe too. The fix reads the bindings off its own parse of
the file: the facts the rule judged by record no `:=` target.
"""

from __future__ import annotations

import libcst as cst

from jaxcheck.findings import Finding
from jaxcheck.fixes.edits import SAFE, UNSAFE, Edit, FixKind, Located

_LITERALS = (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp)
_TRACING_METHODS = frozenset({"lower", "trace", "eval_shape"})  # `g.lower(x, [1])` traces `g`


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
    safe = finding.raises and _calls_the_jitted_function(node, located)
    return Edit(FixKind(SAFE if safe else UNSAFE, title), node, _hashable)


def _calls_the_jitted_function(literal: cst.CSTNode, located: Located) -> bool:
    """Whether the call the literal is passed to certainly runs what the rule
    found jitted: a transform's result called at once (`jax.jit(f)(x, [1])`),
    or a name bound once in the scope it is read from. An attribute
    (`self.step`, `module.step`) can be set anywhere: not certain."""
    call = located.enclosing(literal, (cst.Call,))
    if call is None:
        return False
    callee = call.func
    if _last_name(callee) == "partial" and call.args:
        callee = call.args[0].value  # each call of `partial(step, [1])` calls `step`
    if isinstance(callee, cst.Attribute) and callee.attr.value in _TRACING_METHODS:
        callee = callee.value
    if isinstance(callee, cst.Call):
        return True
    if not isinstance(callee, cst.Name):
        return False
    scope = located.scopes.get(callee)
    return scope is not None and len(scope[callee.value]) == 1


def _last_name(node: cst.BaseExpression) -> str:
    """The last name of a dotted name (`partial` of `functools.partial`); "" for any other expression."""
    if isinstance(node, cst.Name):
        return node.value
    return node.attr.value if isinstance(node, cst.Attribute) else ""


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
