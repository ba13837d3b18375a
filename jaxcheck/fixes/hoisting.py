"""JAX401: a jit of a lambda, `functools.partial` or nested `def` made per call is made once, at module level.

`jax.jit(lambda v: _body(v))(x)` in a function becomes `_jitted_step(x)`, with
`_jitted_step = jax.jit(lambda v: _body(v))` written before the top-level
statement that holds it, so one jitted function and its cache serve every call.
A `@jax.jit` nested `def`, or one given to `jax.jit(inner, ...)`, moves there
whole, when it is a plain statement of the function's body and its name is
bound nowhere else (jit finds the cache of a module-level function again).

Offered only where moving the expression cannot change what its names mean:
every name it reads is a module global (or builtin) or the lambda's own, and
the names read when the expression is evaluated (the transform, `partial`'s
arguments, decorators and defaults; not a lambda's or function's body) are bound at module level before that
statement. Unsafe all the same: the per-call version traced again on every
call and so saw the current value of every global it reads; the hoisted one
traces once and keeps what it saw (JAX204's stale value).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import BuiltinScope, GlobalScope

from jaxcheck.findings import Finding
from jaxcheck.fixes.edits import UNSAFE, Edit, FixKind, Located, subtree

_NOT_MOVABLE = (cst.NamedExpr, cst.Yield, cst.Await)


def hoisting_fix(finding: Finding, located: Located) -> Edit | None:
    calls = located.at(finding.line, finding.column, (cst.Call,))
    transform = next((call for call in calls if _wraps_made_function(call)), None)
    if transform is not None:
        return _hoisted_call(transform, located)
    nested = next((function for call in calls if (function := _nested_def_given(call, located)) is not None), None)
    if nested is not None:
        return _hoisted_def(nested, located)
    decorated = [located.enclosing(node, (cst.Decorator,)) for node in located.at(finding.line, finding.column, (cst.Name, cst.Attribute, cst.Call))]
    decorator = next((node for node in decorated if node is not None), None)
    if decorator is not None:
        return _hoisted_def(located.parents[decorator], located)
    return None


def _hoisted_call(transform: cst.Call, located: Located) -> Edit | None:
    """`jax.jit(lambda ...)` in a function -> a module-level name."""
    call_time = {node for lam in subtree(transform) if isinstance(lam, cst.Lambda) for node in subtree(lam.body)}
    if not _movable(transform, call_time, located):
        return None
    index = located.top_level_index(transform)
    function = located.enclosing(transform, (cst.FunctionDef,))
    stem = function.name.value.strip("_") if function is not None else ""
    name = _fresh_name(f"_jitted_{stem or 'function'}", located.module)
    hoisted = cst.SimpleStatementLine(
        body=[cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=transform)],
        leading_lines=_blank_lines_before(index, located),
    )
    title = f"Make the jitted function once, at module level, as `{name}`"
    return Edit(FixKind(UNSAFE, title), transform, lambda _: cst.Name(name), ((index, hoisted),))


def _hoisted_def(function: cst.CSTNode, located: Located) -> Edit | None:
    """A decorated `def` in a function's body -> the same `def` at module level."""
    outer = located.enclosing(function, (cst.FunctionDef, cst.ClassDef, cst.Lambda))
    if not isinstance(function, cst.FunctionDef) or not isinstance(outer, cst.FunctionDef):
        return None
    if not isinstance(outer.body, cst.IndentedBlock) or function not in outer.body.body:
        return None  # defined under an `if` or in a loop: when it is bound would change
    name = function.name.value
    scope = located.scopes.get(function)
    if scope is None or any(assignment.node is not function for assignment in scope.assignments[name]):
        return None  # the name is bound again in the function
    if name in _global_names(located):
        return None
    if not _movable(function, set(subtree(function.body)), located):
        return None
    index = located.top_level_index(function)
    moved = function.with_changes(leading_lines=_blank_lines_before(index, located))

    def without(node: cst.FunctionDef) -> cst.FunctionDef:
        body = [statement for statement in node.body.body if not statement.deep_equals(function)]
        if body and not node.body.body[0].deep_equals(body[0]):  # it was first: no blank line opens the body
            lines = list(body[0].leading_lines)
            while lines and lines[0].comment is None:
                lines.pop(0)
            body[0] = body[0].with_changes(leading_lines=lines)
        return node.with_changes(body=node.body.with_changes(body=body))

    title = f"Define `{name}` once, at module level"
    return Edit(FixKind(UNSAFE, title), outer, without, ((index, moved),))


def _blank_lines_before(index: int, located: Located) -> list[cst.EmptyLine]:
    """As many blank lines as the statement it goes before has (PEP 8's two before a `def`)."""
    target = located.module.body[index]
    if located.module.body[0] is target:
        return []
    return [cst.EmptyLine()] * sum(1 for line in target.leading_lines if line.comment is None)


def _global_names(located: Located) -> set[str]:
    scope = located.scopes.get(located.module)
    return {assignment.name for assignment in scope.assignments} if scope is not None else set()


def _wraps_made_function(call: cst.Call) -> bool:
    """A transform applied to a lambda or a `partial(...)` written in place."""
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return False
    first = call.args[0].value
    if isinstance(first, cst.Lambda):
        return True
    return isinstance(first, cst.Call) and _last_name(first.func) == "partial"


def _nested_def_given(call: cst.Call, located: Located) -> cst.FunctionDef | None:
    """The nested `def` a transform is given by name (`jax.jit(inner, donate_argnums=0)`), if that is all the name is."""
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return None
    name = call.args[0].value
    scope = located.scopes.get(name)
    if not isinstance(name, cst.Name) or scope is None:
        return None
    assignments = list(scope.assignments[name.value])
    if len(assignments) != 1 or not isinstance(assignments[0].node, cst.FunctionDef):
        return None
    return assignments[0].node


def _last_name(expression: cst.BaseExpression) -> str:
    if isinstance(expression, cst.Name):
        return expression.value
    if isinstance(expression, cst.Attribute):
        return expression.attr.value
    return ""


def _movable(moved: cst.CSTNode, call_time: set[cst.CSTNode], located: Located) -> bool:
    """Whether every name `moved` reads means the same at module level, before
    its top-level statement; names in `call_time` are read only when it is called."""
    nodes = subtree(moved)
    if any(isinstance(node, _NOT_MOVABLE) for node in nodes):
        return False
    within = set(nodes)
    scopes = located.scopes
    outer = scopes.get(moved)
    inner = {scopes[node] for node in nodes if node in scopes} - {outer}
    index = located.top_level_index(moved)
    for scope in {outer, *inner}:
        for access in scope.accesses if scope is not None else ():
            if access.node not in within:
                continue
            if not access.referents:
                return False  # unresolved: a star import, or a name never bound
            for assignment in access.referents:
                if assignment.scope in inner or isinstance(assignment.scope, BuiltinScope):
                    continue
                if not isinstance(assignment.scope, GlobalScope):
                    return False  # a local of the function it is in, a class attribute
                if access.node in call_time:
                    continue  # read when called, by which time the module has run
                bound = getattr(assignment, "node", None)
                if bound is None or located.enclosing(bound, (cst.FunctionDef, cst.ClassDef)) is not None:
                    return False
                if located.top_level_index(bound) >= index:
                    return False
    return True


def _fresh_name(wanted: str, module: cst.Module) -> str:
    taken = {node.value for node in subtree(module) if isinstance(node, cst.Name)}
    name, number = wanted, 2
    while name in taken:
        name, number = f"{wanted}_{number}", number + 1
    return name
