"""The facts of a module, read from Python's own `ast`: the one reader of facts.

Positions are LibCST's, as the fixes and the exact ranges of findings are
built on LibCST's tree: columns are characters (`ast` counts UTF-8 bytes),
and a tuple's grouping parentheses and a generator's own belong to it. The
scan of expressions is last-in-first-out in LibCST's child order, which
decides which of two equal facts comes first.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import sys
import tokenize

from jaxcheck import facts as f
from jaxcheck.extraction.builder import (
    CLASS_VARIABLE,
    CLASS_VARIABLES,
    KEPT_DEEP,
    STATIC_MARKERS,
    TYPING_WRAPPERS,
    WRAPPING_CALLS,
    Context,
    FactsBuilder,
    name_value,
)
from jaxcheck.extraction.scopes import CLASS, FUNCTION, MODULE, Scope, ScopeTable, build_scopes, import_base

_NEWLINE = re.compile(r"\r\n|\r|\n")
# Node classes are compared by identity (`type(node) is ast.Name`), cheaper than
# isinstance: `ast.parse` makes no instance of a subclass of them.
_CONTAINERS = frozenset({ast.Tuple, ast.List, ast.Set, ast.Dict})
_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})
_IDENTITY = frozenset({ast.Is, ast.IsNot})
_MEMBERSHIP = frozenset({ast.In, ast.NotIn})
_IDENTITY_TEST = object()  # the parent of an operand of `is` / `is not`: not a use
_TRY_STAR = (ast.TryStar,) if sys.version_info >= (3, 11) else ()
_LOOPS = frozenset({ast.For, ast.AsyncFor, ast.While})
_WITHS = frozenset({ast.With, ast.AsyncWith})
_COMPOUNDS = frozenset({ast.If, ast.Try, ast.Match, *_LOOPS, *_WITHS, *_TRY_STAR})
# The fields of a node that never hold an expression the scan reads: context,
# operators, identifiers, a Constant's kind, a FormattedValue's conversion.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "kind", "conversion", "type_comment"})
_OPERATORS = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
_NO_NAMES: frozenset[str] = frozenset()
_OUTSIDE = Context((), False)  # an expression in no lambda or comprehension
_FSTRING_POSITIONS_RIGHT = sys.version_info >= (3, 12)  # PEP 701: f-strings parsed with the rest
# One string literal, prefix and all: a constant longer than that is an implicit concatenation.
_STRING = re.compile(
    r"""[rRbBuUfF]{0,2}(?:'''(?:[^\\]|\\.)*?'''|\"\"\"(?:[^\\]|\\.)*?\"\"\"|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""",
    re.DOTALL,
)
_NOT_A_TOKEN = re.compile(r"(?:[ \t\f\r\n]|\\\r?\n|#[^\r\n]*)*")


def ast_facts(text: str, path: str, module_name: str, is_package: bool, tree: ast.Module | None = None) -> f.ModuleFacts:
    """The facts of `text` (`tree`, when given, is `ast.parse(text)`);
    SyntaxError when this Python cannot parse it."""
    return _AstExtractor(ast.parse(text) if tree is None else tree, text, path, module_name, is_package).run()


# The last names of the transforms that make a new function of the one they are given (`jit`, `vmap`).
_WRAPPING_NAMES = f.TRANSFORM_NAMES | frozenset(name.rpartition(".")[2] for name in f.WRAPPERS)


class _Source:
    """The text by line, for character columns and the tokens `ast` gives no position."""

    def __init__(self, text: str) -> None:
        self.lines = _NEWLINE.split(text)
        self.ascii = text.isascii()  # byte offsets are columns
        self._comment_starts: dict[int, int] | None = None

    def column(self, line: int, offset: int) -> int:
        """The 0-based character column of a UTF-8 byte offset on a 1-based line."""
        if self.ascii:
            return offset
        text = self.lines[line - 1]
        if text.isascii():
            return offset
        return len(text.encode("utf-8")[:offset].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> tuple[int, int]:
        if self.ascii:
            return node.lineno, node.col_offset
        return node.lineno, self.column(node.lineno, node.col_offset)

    def char(self, line: int, column: int) -> str:
        text = self.lines[line - 1]
        return text[column] if column < len(text) else ""

    def next_token(self, line: int, column: int) -> tuple[int, int]:
        """Where the next token starts at or after (line, column): whitespace,
        comments, continuations and newlines skipped."""
        while line <= len(self.lines):
            text = self.lines[line - 1]
            column = _NOT_A_TOKEN.match(text, column).end()
            if text.endswith("\\") and column == len(text) - 1:
                column = len(text)  # a continuation: the newline was split off
            if column < len(text):
                return line, column
            line, column = line + 1, 0
        return len(self.lines), len(self.lines[-1])  # the end of the text

    def previous_char(self, line: int, column: int) -> tuple[int, int, str]:
        """The nearest character before (line, column) that is neither blank nor
        in a comment, "" at the start of the text."""
        text = self.lines[line - 1][:column].rstrip(" \t\f")
        while not text and line > 1:
            line -= 1
            text = self.lines[line - 1]
            if "#" in text:
                text = text[: self._comments().get(line, len(text))]
            text = text.rstrip(" \t\f\\")
        return line, len(text) - 1, text[-1:]

    def _comments(self) -> dict[int, int]:
        """Where each comment starts, by line: read once, for the rare file that asks."""
        if self._comment_starts is None:
            self._comment_starts = {}
            try:
                for token in tokenize.generate_tokens(io.StringIO("\n".join(self.lines)).readline):
                    if token.type == tokenize.COMMENT:
                        self._comment_starts[token.start[0]] = token.start[1]
            except (tokenize.TokenError, SyntaxError):
                pass  # the comments found before the tokenizer stopped are all there is to know
        return self._comment_starts


def _dotted_name(node: ast.AST) -> str | None:
    """The dotted name an expression spells, if it is one; `True`, `False` and `None` are names."""
    if type(node) is ast.Name:
        return node.id
    parts = []
    while type(node) is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if type(node) is ast.Name:
        parts.append(node.id)
    elif type(node) is ast.Constant and (node.value is None or node.value is True or node.value is False):
        parts.append(str(node.value))
    else:
        return None
    return ".".join(reversed(parts))


def _attributes(node: ast.Attribute) -> tuple[str, ...]:
    """The attributes an attribute chain reads off its base: ("solver", "dt") for `p.solver.dt`."""
    names = []
    while type(node) is ast.Attribute:
        names.append(node.attr)
        node = node.value
    return tuple(reversed(names))


def _chain_of(node: ast.AST, name: str) -> tuple[str, ...] | None:
    """The attributes `node` reads off the local `name` (`p.a.b` -> ("a", "b")); None when it is not one."""
    if type(node) is not ast.Attribute:
        return None
    chain = _attributes(node)
    while type(node) is ast.Attribute:
        node = node.value
    return chain if type(node) is ast.Name and node.id == name else None


def _held_calls(body: list[ast.stmt], name: str) -> list[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]]:
    """`ParameterUse.held_calls` of the parameter `name` in a function's own body (not its nested ones)."""
    displays: dict[str, set[tuple[str, ...]]] = {}  # a local bound to a list, tuple or dict of `name`'s attributes
    stored: dict[tuple[str, ...], set[tuple[str, ...]]] = {}  # `p.inputs["opt"] = p.opt`: ("inputs",) holds ("opt",)
    calls: list[tuple[tuple[str, ...], ast.Call]] = []

    def inside(value: ast.AST) -> set[tuple[str, ...]]:
        if type(value) is ast.Starred:
            value = value.value
        chain = _chain_of(value, name)
        if chain is not None:
            return {chain}
        if type(value) in (ast.List, ast.Tuple, ast.Set):
            return set().union(*(inside(element) for element in value.elts))
        if type(value) is ast.Dict:
            return set().union(*(inside(element) for element in value.values))
        if type(value) is ast.Name:
            return displays.get(value.id, set())
        return set()

    nodes: list[ast.AST] = list(body)
    while nodes:
        node = nodes.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        if kind is ast.Assign and len(node.targets) == 1:
            target = node.targets[0]
            if type(target) is ast.Name and type(node.value) in (ast.List, ast.Tuple, ast.Set, ast.Dict):
                displays.setdefault(target.id, set()).update(inside(node.value))
            elif type(target) is ast.Subscript:
                holder = _chain_of(target.value, name)
                if holder is not None:
                    stored.setdefault(holder, set()).update(inside(node.value))
        elif kind is ast.Call:
            callee = node.func
            while type(callee) is ast.Subscript:
                callee = callee.value
            holder = _chain_of(callee, name)
            if holder is not None:
                calls.append((holder, node))
        nodes.extend(ast.iter_child_nodes(node))
    found = []
    for holder, call in calls:
        handed = set().union(set(), *(inside(value) for value in [*call.args, *(kw.value for kw in call.keywords)]))
        pending = list(handed)
        while pending:
            for held in stored.get(pending.pop(), ()):
                if held not in handed:
                    handed.add(held)
                    pending.append(held)
        found.append((holder, tuple(sorted(handed))))
    return sorted(set(found))


def _arguments(node: ast.Call) -> list[tuple[str, ast.AST, ast.expr]]:
    """A call's arguments in source order, as LibCST lists them: (star or
    keyword name or "", the node that starts it, the value)."""
    found = [("*", arg, arg.value) if type(arg) is ast.Starred else ("", arg, arg) for arg in node.args]
    keywords = [("**" if kw.arg is None else "=" + kw.arg, kw, kw.value) for kw in node.keywords]
    arguments = found + keywords
    if found and keywords:  # `f(x=1, *rest)`: a star may follow a keyword
        arguments.sort(key=lambda argument: (argument[1].lineno, argument[1].col_offset))
    return arguments


def _argument_values(node: ast.Call) -> list[ast.expr]:
    """The values of `_arguments`, in the same order."""
    if not node.keywords:
        return [arg.value if type(arg) is ast.Starred else arg for arg in node.args]
    if not node.args:
        return [keyword.value for keyword in node.keywords]
    return [value for _, _, value in _arguments(node)]


def _parameters(args: ast.arguments) -> list[tuple[ast.arg, str, ast.expr | None]]:
    """Every parameter with its kind and default, in the order they are written."""
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    found = [(arg, "positional", default) for arg, default in zip(positional, defaults)]
    if args.vararg is not None:
        found.append((args.vararg, "vararg", None))
    found.extend((arg, "keyword", default) for arg, default in zip(args.kwonlyargs, args.kw_defaults))
    if args.kwarg is not None:
        found.append((args.kwarg, "varkw", None))
    return found


def _children(node: ast.AST) -> list[ast.AST]:
    """A node's children in LibCST's order for the same syntax, its wrappers
    (Arg, Element, Index...) flattened: the scan's order does not see them."""
    kind = type(node)
    if kind is ast.Tuple or kind is ast.List or kind is ast.Set:
        return node.elts
    if kind is ast.Dict:
        found: list[ast.AST] = []
        for key, value in zip(node.keys, node.values):
            if key is not None:
                found.append(key)
            found.append(value)
        return found
    if kind is ast.BoolOp:
        return node.values
    if kind is ast.Slice:
        return [part for part in (node.lower, node.upper, node.step) if part is not None]
    found = []
    for name in _child_fields(kind):
        child = getattr(node, name)
        if type(child) is list:
            found.extend(item for item in child if isinstance(item, ast.AST) and not isinstance(item, _OPERATORS))
        elif child is not None and isinstance(child, ast.AST) and not isinstance(child, _OPERATORS):
            found.append(child)
    return found


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {ast.Constant: ()}


def _child_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node class that may hold child nodes, in `_fields`' order (`ast.iter_child_nodes`')."""
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(name for name in kind._fields if name not in _LEAF_FIELDS)
    return fields


def _shadowed_by(generators: list[ast.comprehension]) -> frozenset[str]:
    """The names a comprehension's targets bind: every Name under them, attribute names included."""
    names: set[str] = set()
    for generator in generators:
        for node in ast.walk(generator.target):
            kind = type(node)
            if kind is ast.Name:
                names.add(node.id)
            elif kind is ast.Attribute:
                names.add(node.attr)
    return frozenset(names)


def _subscript_elements(node: ast.Subscript, source: _Source) -> list[ast.expr | None]:
    """LibCST's subscript elements: each index's value, None for a slice."""
    index = node.slice
    items = [index]
    if type(index) is ast.Tuple:
        start = source.start(index)
        if not (source.char(*start) == "(" and not (index.elts and source.start(index.elts[0]) == start)):
            items = index.elts  # `x[a, b]`; `x[(a, b)]` is one element, the tuple
    return [None if type(item) is ast.Slice else item.value if type(item) is ast.Starred else item for item in items]


def _literal_string(source: _Source, node: ast.Constant) -> bool:
    """A str or bytes constant written as one literal, not an implicit concatenation."""
    line, column = source.start(node)
    end_line, end_offset = node.end_lineno, node.end_col_offset
    lines = source.lines[line - 1 : end_line]
    text = "\n".join(lines)
    end = len(text) - len(lines[-1]) + source.column(end_line, end_offset)
    match = _STRING.match(text, column)
    return match is None or match.end() == end


# Loops: the names that change from one turn to the next, and what kind of value each holds.

_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim", "dtype"})
_NUMBER_CALLS = frozenset({"int", "float", "len", "round", "abs"})
# Calls that return an array computed from their arguments' values.
_ARRAY_NAMESPACES = (*f.ARRAY_NAMESPACES, "numpy.")
_PASSED_THROUGH = frozenset(
    {*("builtins." + name for name in ("zip", "list", "tuple", "sorted", "reversed", "set", "enumerate")), "itertools.product"}
)
_NO_DESCENT = (ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_TURNS_KNOWN = 10_000  # a constant `range` longer than this is not counted
_FEW_TURNS = 8  # a constant `range` this short is a fixed set of values
NUMBER, FLAG, ANY = f.A_NUMBER, f.A_FLAG, f.ANYTHING


class _Loop:
    """A loop being read: what it runs over, whether those values are fixed for
    the run, and the names that change from turn to turn with their kinds."""

    def __init__(self, node: ast.For | ast.AsyncFor | ast.While, reader: _AstExtractor, scope: Scope) -> None:
        self.node = node
        self.names: dict[str, str] = {}
        self.turns: int | None = None
        self.fixed = False
        self.over = "while"
        if type(node) is not ast.While:
            iterable, target = node.iter, node.target
            self.over = _shortened(iterable)
            builtin = _builtin(iterable, scope)
            if type(iterable) in (ast.Tuple, ast.List, ast.Set):
                self.turns = len(iterable.elts)
            elif builtin == "builtins.range":
                self.turns = _range_length(iterable)
            self.fixed = reader.fixed_values(iterable, scope)
            kind = NUMBER if builtin == "builtins.range" else ANY
            if builtin == "builtins.enumerate" and type(target) is ast.Tuple and len(target.elts) == 2:
                for name in _names_stored(target.elts[0]):
                    self.names[name] = NUMBER
                target = target.elts[1]
            for name in _names_stored(target):
                self.names[name] = kind
        # A name the body updates from itself changes on every turn: `n += 1`, `t = t + dt`. It is
        # a Python number when it starts as one (`lr = 0.1` before the loop) and the update is
        # arithmetic of numbers: `lr *= 0.99` of an array stays an array.
        for statement in _loop_body_statements(node.body):
            if type(statement) is ast.AugAssign:
                for name in _names_stored(statement.target):
                    start = self._kind_before(name, reader, scope)
                    self.names.setdefault(name, NUMBER if start == NUMBER and _kind(statement.value, self) == NUMBER else ANY)
            elif type(statement) is ast.Assign:
                read = {n.id for n in _names_read(statement.value)}
                for target in statement.targets:
                    for name in _names_stored(target):
                        if name in read:
                            self.names.setdefault(name, self._updated_kind(name, statement.value, reader, scope))

    def _kind_before(self, name: str, reader: _AstExtractor, scope: Scope) -> str:
        """The kind of what `name` was bound to before the loop: NUMBER for `lr = 0.1`."""
        bound = reader.bound_last.get((scope.function, name))
        return _kind(bound, self) if bound is not None and name not in self.names else ANY

    def _updated_kind(self, name: str, value: ast.expr, reader: _AstExtractor, scope: Scope) -> str:
        """The kind of `name = <value reading name>`, the name counting as what it started as."""
        if self._kind_before(name, reader, scope) != NUMBER:
            return _kind(value, self)
        self.names[name] = NUMBER
        kind = _kind(value, self)
        del self.names[name]
        return kind


def _string_guard(test: ast.expr) -> tuple[str, str] | None:
    """`name == "lit"` (or `"lit" == name`): the name and the string."""
    if type(test) is not ast.Compare or len(test.ops) != 1 or type(test.ops[0]) is not ast.Eq:
        return None
    left, right = test.left, test.comparators[0]
    if type(left) is ast.Constant:
        left, right = right, left
    if type(left) is ast.Name and type(right) is ast.Constant and isinstance(right.value, str):
        return left.id, right.value
    return None


def _builtin(node: ast.expr, scope: Scope) -> str:
    """The dotted name a call calls, resolved: `builtins.range` for `range(...)`."""
    if type(node) is not ast.Call:
        return ""
    callee = _dotted_name(node.func)
    return scope.resolve_dotted(callee).dotted if callee is not None else ""


def _shortened(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 40 else text[:37] + "..."


def _range_length(node: ast.Call) -> int | None:
    values = [arg.value for arg in node.args if type(arg) is ast.Constant]
    if node.keywords or len(values) != len(node.args) or not all(type(v) is int for v in values) or not 1 <= len(values) <= 3:
        return None
    if len(values) == 3 and values[2] == 0:
        return None
    turns = len(range(*values))
    return turns if turns <= _TURNS_KNOWN else None


def _loop_body_statements(body: list[ast.stmt]):
    """The statements a loop's body runs on each turn, nested blocks included, not nested definitions."""
    pending = list(body)
    while pending:
        statement = pending.pop()
        if type(statement) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            continue
        yield statement
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            pending.extend(getattr(statement, field, ()) or ())


def _names_stored(target: ast.expr) -> list[str]:
    if type(target) is ast.Name:
        return [target.id]
    if type(target) in (ast.Tuple, ast.List):
        return [name for element in target.elts for name in _names_stored(element)]
    if type(target) is ast.Starred:
        return _names_stored(target.value)
    return []


def _names_read(node: ast.expr):
    """The names an expression reads, not through an array's shape (`x.shape[0]`, `len(x)`: a new
    shape compiles again whatever is static) nor inside a lambda or comprehension."""
    pending = [node]
    while pending:
        current = pending.pop()
        kind = type(current)
        if kind is ast.Name:
            yield current
        elif kind is ast.Attribute and current.attr in _SHAPE_ATTRIBUTES:
            continue
        elif kind is ast.Call and type(current.func) is ast.Name and current.func.id == "len":
            continue
        elif not isinstance(current, _NO_DESCENT):
            pending.extend(ast.iter_child_nodes(current))


def _changing(node: ast.expr, loops: list[_Loop]) -> tuple[_Loop, tuple[str, ...]] | None:
    """The innermost open loop one of whose changing names the expression reads, with those names."""
    read = {name.id for name in _names_read(node)}
    if not read:
        return None
    for loop in reversed(loops):
        names = read.intersection(loop.names)
        if names:
            return loop, tuple(sorted(names))
    return None


def _kind(node: ast.expr, loop: _Loop) -> str:
    """NUMBER for a counted name, `int()`/`len()` of anything and arithmetic of those; FLAG for a
    comparison, `not`, `bool()` and the like, which take two values; ANY otherwise."""
    kind = type(node)
    if kind is ast.Name:
        return loop.names.get(node.id, ANY)
    if kind is ast.Constant:
        return FLAG if type(node.value) is bool else NUMBER if type(node.value) in (int, float) else ANY
    if kind is ast.Compare or kind is ast.UnaryOp and type(node.op) is ast.Not:
        return FLAG
    if kind is ast.Call and type(node.func) is ast.Name:
        return FLAG if node.func.id == "bool" else NUMBER if node.func.id in _NUMBER_CALLS else ANY
    if kind is ast.BoolOp or kind is ast.IfExp:
        parts = {_kind(part, loop) for part in (node.values if kind is ast.BoolOp else (node.body, node.orelse))}
        return parts.pop() if len(parts) == 1 else ANY
    if kind is ast.BinOp:
        return NUMBER if _kind(node.left, loop) == NUMBER and _kind(node.right, loop) == NUMBER else ANY
    if kind is ast.UnaryOp:
        return _kind(node.operand, loop)
    return ANY


class _AstExtractor(FactsBuilder):
    """A module's facts from Python's tree: statements in order, expressions scanned."""

    def __init__(self, tree: ast.Module, text: str, path: str, module_name: str, is_package: bool) -> None:
        super().__init__(tree, path, module_name, build_scopes(tree.body, module_name, is_package, _bind_statement))
        self.source = _Source(text)
        self.loops_open: dict[str, list[_Loop]] = {}  # function qualname ("" for the module) -> its loops open
        self.statement_value: ast.AST | None = None  # the value of the small statement being read
        self.bound_last: dict[tuple[str, str], ast.expr | None] = {}  # (function, name) -> what it was last bound to
        self.guards: dict[str, list[tuple[str, str]]] = {}  # function -> the `if name == "lit":` bodies open in it

    # Statements

    def statement(self, node: ast.AST, scope: Scope) -> None:
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            self.function(node, scope)
        elif kind is ast.ClassDef:
            self.class_(node, scope)
        elif kind in _COMPOUNDS:
            self.compound(node, scope)
        else:
            self.small_statement(node, scope)

    def compound(self, node: ast.AST, scope: Scope) -> None:
        function = scope.function
        kind = type(node)
        branches = kind not in _WITHS
        self.branch_depth[function] = self.branch_depth.get(function, 0) + branches
        if kind in _LOOPS:
            if kind is not ast.While:
                self.scan(node.iter, scope)
            self.loop_depth[function] = self.loop_depth.get(function, 0) + 1
            self.loops_open.setdefault(function, []).append(_Loop(node, self, scope))
            self._compound(node, scope)
            self.loops_open[function].pop()
            self.loop_depth[function] -= 1
        else:
            self._compound(node, scope)
        self.branch_depth[function] -= branches

    def _else(self, statements: list[ast.stmt], scope: Scope) -> None:
        """LibCST's Else or Finally: a compound of its own around its block."""
        function = scope.function
        self.branch_depth[function] = self.branch_depth.get(function, 0) + 1
        self.statements(statements, scope)
        self.branch_depth[function] -= 1

    def _compound(self, node: ast.AST, scope: Scope) -> None:
        # LibCST's children in field order; nested clauses run as they come, the body last.
        kind = type(node)
        if kind is ast.If or kind is ast.While:
            self.scan(node.test, scope)
            if node.orelse:
                self._else(node.orelse, scope)
        elif kind is ast.For or kind is ast.AsyncFor:
            self.bind_target(node.target, None, scope)
            if node.orelse:
                self._else(node.orelse, scope)
        elif kind in _WITHS:
            for item in node.items:
                self.scan(item.context_expr, scope)
                if item.optional_vars is not None:
                    self.bind_target(item.optional_vars, None, scope)
        elif kind is ast.Match:
            self.scan(node.subject, scope)
            for case in node.cases:
                self.compound(case, scope)
            return
        elif kind is ast.match_case:
            if node.guard is not None:  # the pattern is not read, as LibCST's MatchPattern is no expression
                self.scan(node.guard, scope)
        elif kind is ast.ExceptHandler:
            if node.type is not None:
                self.scan(node.type, scope)
            if node.name is not None:
                self._bind_name(node.name, self._handler_name(node), scope)
        else:  # try
            for handler in node.handlers:
                self.compound(handler, scope)
            if node.orelse:
                self._else(node.orelse, scope)
            if node.finalbody:
                self._else(node.finalbody, scope)
        guard = _string_guard(node.test) if kind is ast.If and scope.kind == FUNCTION else None
        if guard is not None and guard[0] not in scope.parameters:
            guard = None  # a registry dispatches on what its caller names
        if guard is not None:
            self.guards.setdefault(scope.function, []).append(guard)
        self.statements(node.body, scope)
        if guard is not None:
            self.guards[scope.function].pop()

    def _handler_name(self, node: ast.ExceptHandler) -> f.Location:
        """Where `except E as name` writes `name`: `ast` keeps only the string."""
        line, column = node.type.end_lineno, self.source.column(node.type.end_lineno, node.type.end_col_offset)
        line, column = self.source.next_token(line, column)
        while self.source.char(line, column) == ")":
            line, column = self.source.next_token(line, column + 1)
        if self.source.lines[line - 1][column : column + 2] == "as":
            line, column = self.source.next_token(line, column + 2)
            if self.source.lines[line - 1].startswith(node.name, column):
                return f.Location(line, column + 1)
        return self.location(node)  # a clause the text does not spell as expected: the handler itself

    def small_statement(self, node: ast.AST, scope: Scope) -> None:
        kind = type(node)
        self.statement_value = getattr(node, "value", None)
        if kind is ast.Expr or kind is ast.Raise or kind is ast.Assert:
            if kind is ast.Raise and scope.kind == FUNCTION:
                self.raising.add(scope.qualname)
            if kind is ast.Expr and type(node.value) is ast.Call:
                value = self.value(node.value, scope)
                if self._makes_function(value):
                    self.discarded.append(value.location)
                    if self.loop_depth.get(scope.function, 0):
                        self.looped.append(value.location)
            for child in _children(node):
                self.scan(child, scope)
        elif kind is ast.Assign:
            self._note_loop_binding(node.targets, node.value, scope)
            value = self.value(node.value, scope)
            target = node.targets[0]
            # `step = jax.jit(step)` with `step` a function made on this call (`step = jax.vmap(inner)`): the
            # old function lives on inside the new one, which is followed from here instead.
            rewrapped = (
                len(node.targets) == 1 and type(target) is ast.Name and scope.kind == FUNCTION
                and (scope.qualname, target.id) in self.tracked
                and type(node.value) is ast.Call and bool(node.value.args)
                and type(node.value.args[0]) is ast.Name and node.value.args[0].id == target.id
                and value.ref is not None and value.ref.last in _WRAPPING_NAMES
            )
            if rewrapped:
                self.scan(node.value, scope)
                del self.tracked[(scope.qualname, target.id)]
            for target in node.targets:
                self.bind_target(target, value if len(node.targets) == 1 else None, scope)
            target = node.targets[0]
            if len(node.targets) == 1 and type(target) is ast.Name and (rewrapped or self._makes_function(value)):
                self._track(scope, target.id, value.location)
            if not rewrapped:
                self.scan(node.value, scope)
        elif kind is ast.AnnAssign:
            value = self.value(node.value, scope) if node.value is not None else None
            if scope.kind == CLASS and type(node.target) is ast.Name:
                self._class_attributes[-1].append(
                    f.ClassAttribute(
                        node.target.id, self.location(node), self.annotation_refs(node.annotation, scope), value
                    )
                )
            elif value is not None or type(node.target) is not ast.Name:
                self.bind_target(node.target, value, scope)
            if node.value is not None:
                self.scan(node.value, scope)
        elif kind is ast.AugAssign:
            self.bind_target(node.target, None, scope)
            self.scan(node.value, scope)
        elif kind is ast.Delete:
            for target in node.targets:
                self.bind_target(target, None, scope)
        elif kind is ast.Return:
            if node.value is not None:
                self.scan(node.value, scope)
                if scope.kind == FUNCTION:
                    self.returns.setdefault(scope.qualname, []).append(self.value(node.value, scope))

    def _bind_name(self, name: str, location: f.Location, scope: Scope, value: f.Value | None = None) -> None:
        if scope.kind == CLASS:
            self._class_attributes[-1].append(f.ClassAttribute(name, location, (), value))
            return
        ref = scope.binding_ref(name)
        known = self.tracked.get((scope.qualname, name)) if scope.kind == FUNCTION else None
        if known is not None:
            known.escapes = True
        function = scope.function
        conditional = self.branch_depth.get(function, 0) > 0
        self.bindings.append(f.Binding(ref, value or f.Value(f.OTHER, location), location, function, conditional))
        self.note_loop(location, function)

    def bind_target(self, target: ast.AST, value: f.Value | None, scope: Scope) -> None:
        kind = type(target)
        if kind is ast.Name:
            self._bind_name(target.id, self.location(target), scope, value)
        elif kind is ast.Tuple or kind is ast.List:
            paired = (
                value is not None
                and value.kind in (f.TUPLE, f.LIST)
                and len(value.args) == len(target.elts)
                and not any(type(element) is ast.Starred for element in target.elts)
                and not any(element.literal == "*" for element in value.args)
            )
            for number, element in enumerate(target.elts):
                if paired:
                    given = value.args[number]
                elif value is not None and value.kind == f.CALL and type(element) is not ast.Starred:
                    # `dynamic, static = eqx.partition(model, ...)`: the call's item, by position.
                    index = f.Value(f.CONSTANT, self.location(element), literal=number)
                    given = f.Value(f.OTHER, self.location(element), args=(value, index), literal=f.ITEM)
                else:
                    given = None
                self.bind_target(element, given, scope)
        elif kind is ast.Starred:
            self.bind_target(target.value, None, scope)
        elif kind is ast.Attribute:
            base = _dotted_name(target.value)
            if base is not None:
                self.writes.append(
                    f.AttributeWrite(
                        scope.resolve_dotted(base), target.attr, self.location(target), scope.function, value
                    )
                )
                self.note_loop(self.location(target), scope.function)
            else:
                self.scan(target.value, scope)
        elif kind is ast.Subscript:
            container = _dotted_name(target.value)
            if container is not None:
                self.item_writes.append(
                    f.ItemWrite(scope.resolve_dotted(container), self.location(target), scope.function)
                )
                self.note_loop(self.location(target), scope.function)
            self.scan(target, scope)

    # Definitions

    def function(self, node: ast.FunctionDef, scope: Scope) -> None:
        inner = self.scopes.of(node)
        self.function_scopes[inner.qualname] = inner
        for decorator in node.decorator_list:
            self.scan(decorator, scope)
        if node.decorator_list and scope.kind == FUNCTION:
            self._track(scope, node.name, self.location(node))
        parameters = []
        for arg, kind, default in _parameters(node.args):
            annotation = self.annotation_refs(arg.annotation, scope) if arg.annotation is not None else ()
            if default is not None:
                self.scan(default, scope)
            parameters.append(f.Parameter(arg.arg, kind, annotation))
        loop_depth = self.loop_depth.get(scope.function, 0) if scope.kind != CLASS else 0
        if loop_depth:
            self.defined_in_loop.add(inner.qualname)
        self.functions.append(
            f.FunctionFacts(
                qualname=inner.qualname,
                name=node.name,
                location=self.location(node),
                parameters=tuple(parameters),
                decorators=tuple(self.value(decorator, scope) for decorator in node.decorator_list),
                uses=(),
                class_qualname=scope.qualname if scope.kind == CLASS else "",
                loop_depth=loop_depth,
            )
        )
        self.statements(node.body, inner)
        if scope.kind == CLASS and parameters:
            held = _held_calls(node.body, parameters[0].name)
            if held:
                self.held_calls[inner.qualname, parameters[0].name] = held

    def class_(self, node: ast.ClassDef, scope: Scope) -> None:
        inner = self.scopes.of(node)
        for decorator in node.decorator_list:
            self.scan(decorator, scope)
        bases, keywords = [], []
        for base in node.bases:
            base = base.value if type(base) is ast.Starred else base
            self.scan(base, scope)
            name = _dotted_name(base.value if type(base) is ast.Subscript else base)
            bases.append(scope.resolve_dotted(name) if name is not None else None)
        for argument in node.keywords:
            self.scan(argument.value, scope)
            name = _dotted_name(argument.value)
            keywords.append((argument.arg or "**", scope.resolve_dotted(name) if name is not None else None))
        self._class_attributes.append([])
        first_function = len(self.functions)
        self.statements(node.body, inner)
        attributes = self._class_attributes.pop()
        methods = tuple(
            function.qualname
            for function in self.functions[first_function:]
            if function.class_qualname == inner.qualname
        )
        self.classes.append(
            f.ClassFacts(
                qualname=inner.qualname,
                name=node.name,
                location=self.location(node),
                bases=tuple(bases),
                keywords=tuple(keywords),
                decorators=tuple(self.value(decorator, scope) for decorator in node.decorator_list),
                methods=methods,
                attributes=tuple(attributes),
            )
        )

    # Expressions

    def scan(self, node: ast.AST, scope: Scope) -> None:
        """Every expression under `node`, last in first out, with the parents
        that matter (a call, an attribute chain, an identity test)."""
        stack: list[tuple[ast.AST, object, frozenset[str], Context]] = [(node, None, _NO_NAMES, _OUTSIDE)]
        while stack:
            current, parent, shadowed, context = stack.pop()
            kind = type(current)
            if kind is ast.Name:
                self._name_use(current, parent, shadowed, scope, context)
            elif kind is ast.Attribute:
                base = current.value
                while type(base) is ast.Attribute:
                    base = base.value
                stack.append((base if type(base) is ast.Name else current.value, current, shadowed, context))
            elif kind is ast.Call:
                if len(current.args) == 1 and not current.keywords and _builtin(current, scope) == "builtins.len":
                    self.shape_nodes.add(id(current.args[0]))  # `len(p.d)`
                self._call(current, scope, shadowed, context)
                stack.append((current.func, current, shadowed, context))
                for value in _argument_values(current):
                    stack.append((value, current, shadowed, context))
            elif kind is ast.Constant:
                continue  # nothing inside
            elif kind is ast.Lambda:
                parameters = _parameters(current.args)
                for _, _, default in parameters:
                    if default is not None:
                        stack.append((default, None, shadowed, context))
                inner = shadowed | frozenset(arg.arg for arg, _, _ in parameters)
                body = Context((*context.lambdas, self.location(current)), context.repeated)
                stack.append((current.body, current, inner, body))
            elif kind in _COMPREHENSIONS:
                first, *rest = current.generators
                stack.append((first.iter, current, shadowed, context))
                inner = shadowed | _shadowed_by(current.generators)
                repeated = Context(context.lambdas, True)
                elements = (current.key, current.value) if kind is ast.DictComp else (current.elt,)
                parts = [*elements, first.target, *first.ifs]
                for generator in rest:
                    parts += [generator.target, generator.iter, *generator.ifs]
                stack.extend((part, current, inner, repeated) for part in parts)
            elif kind is ast.Compare:
                left = _IDENTITY_TEST if all(type(op) in _IDENTITY for op in current.ops) else current
                stack.append((current.left, left, shadowed, context))
                for op, comparator in zip(current.ops, current.comparators):
                    if type(op) in _MEMBERSHIP:
                        self.shape_nodes.add(id(comparator))  # `"k" in p.d`
                    stack.append((comparator, _IDENTITY_TEST if type(op) in _IDENTITY else current, shadowed, context))
            else:
                if kind is ast.FormattedValue and not _FSTRING_POSITIONS_RIGHT:
                    self._placed_inside_fstring(current)
                for child in _children(current):
                    stack.append((child, current, shadowed, context))

    def _call(self, node: ast.Call, scope: Scope, shadowed: frozenset[str], context: Context) -> None:
        super()._call(node, scope, shadowed, context)
        if context.lambdas:
            return
        self._note_dispatch(node, scope, shadowed)
        loops = self.loops_open.get(scope.function) or []
        for argument in _argument_values(node):
            found = _changing(argument, loops) if loops else None
            if found is not None:
                loop, names = found
                self.loop_values.append(
                    f.LoopValue(
                        self.location(argument), self.location(loop.node), loop.over, names, loop.turns, loop.fixed,
                        _kind(argument, loop),
                    )
                )
            elif scope.kind == FUNCTION and (names := self._per_call_number(argument, scope, 0)):
                # `float(loss)` of this call's data: a new number on every run of the function.
                self.loop_values.append(
                    f.LoopValue(self.location(argument), self.location(argument), f.PER_CALL, names, kind=NUMBER)
                )

    def _note_dispatch(self, node: ast.Call, scope: Scope, shadowed: frozenset[str]) -> None:
        """A call made only for one string value of a local (`SMAX(**kw)` under
        `if env_id == "SMAX":`), or of a dict looked up by a local
        (`ENVS[env_id](**kw)`): a registry's dispatch."""
        if scope.kind != FUNCTION or shadowed:
            return
        function, location = scope.function, self.location(node)
        callee = node.func
        if type(callee) is ast.Subscript and type(callee.slice) is ast.Name and callee.slice.id in scope.parameters:
            registry = _dotted_name(callee.value)
            if registry is not None and not scope.resolve_dotted(registry).is_local:
                self.dispatches.append(f.Dispatch(location, function, callee.slice.id, registry=scope.resolve_dotted(registry)))
            return
        guards = self.guards.get(function)
        # Only the call a statement under the guard makes (`env = SMAX(**kw)`), not those inside it (`Config()`).
        if guards and node is self.statement_value and _dotted_name(callee) is not None:
            name, literal = guards[-1]
            self.dispatches.append(f.Dispatch(location, function, name, literal))

    def _per_call_number(self, node: ast.expr, scope: Scope, depth: int) -> tuple[str, ...]:
        """The names through which an argument holds `int()`/`float()` of a value computed from
        arrays' values in this run of the function (`float(jnp.abs(nll) * w)`), as written or in
        an object built with it (`Cfg(weight=float(...))`); () for none. Not a shape (`x.shape[0]`,
        `len(x)`), nor a number from configuration (`int(cfg.n)`, a parameter, a constant)."""
        kind = type(node)
        if depth > 3:
            return ()
        if kind is ast.Name:
            bound = self.bound_last.get((scope.function, node.id))
            found = self._per_call_number(bound, scope, depth + 1) if bound is not None else ()
            return (node.id, *found) if found else ()
        if kind is ast.Call:
            builtin = _builtin(node, scope)
            if builtin in ("builtins.int", "builtins.float", "builtins.round") and node.args:
                return (builtin[9:] + "()",) if self._array_data(node.args[0], scope, 0, False) else ()
            callee = _dotted_name(node.func)
            if callee is not None and callee.rpartition(".")[2][:1].isupper():  # an object built with it
                for value in _argument_values(node):
                    if found := self._per_call_number(value, scope, depth + 1):
                        return found
            return ()
        if kind in (ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Tuple):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr) and (found := self._per_call_number(child, scope, depth + 1)):
                    return found
        return ()

    def _array_data(self, node: ast.expr, scope: Scope, depth: int, in_array: bool) -> bool:
        """Whether the expression is computed from the values of arrays: a call of `jax.numpy`, `jax.lax`
        and kin with an argument that is not a constant, a shape or configuration; inside such a call, the
        result of any other call too (`jnp.abs(loss_fn(x))`). Followed through names this function binds."""
        kind = type(node)
        if depth > 3:  # names followed
            return False
        if kind is ast.Name:
            bound = self.bound_last.get((scope.function, node.id))
            return bound is not None and self._array_data(bound, scope, depth + 1, in_array)
        if kind is ast.Subscript:
            return self._array_data(node.value, scope, depth, in_array)
        if kind is ast.Call:
            builtin = _builtin(node, scope)
            if builtin == "builtins.len":
                return False
            if builtin.startswith(_ARRAY_NAMESPACES):
                return any(self._array_data(value, scope, depth, True) for value in _argument_values(node))
            if type(node.func) is ast.Attribute and node.func.attr == "item" and not node.args:
                return self._array_data(node.func.value, scope, depth, True)
            return in_array and not builtin.startswith("builtins.") or builtin == "builtins.sum" and in_array
        if kind in (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp):
            return any(
                self._array_data(child, scope, depth, in_array)
                for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
            )
        return False  # a constant, an attribute (`cfg.n`, `x.shape`), a comprehension

    def _note_loop_binding(self, targets: list[ast.expr], value: ast.expr, scope: Scope) -> None:
        """`k = n + 1` in the loop over `n`: `k` changes from turn to turn too."""
        for target in targets:
            single = type(target) is ast.Name and len(targets) == 1
            for name in _names_stored(target):
                self.bound_last[scope.function, name] = value if single else None
        loops = self.loops_open.get(scope.function)
        if not loops:
            return
        found = _changing(value, loops)
        if found is not None:
            loop = found[0]
            kind = _kind(value, loop)
            for target in targets:
                for name in _names_stored(target):
                    loop.names[name] = kind

    def fixed_values(self, node: ast.expr, scope: Scope, depth: int = 0) -> bool:
        """Whether a loop runs over values fixed for the run: written out in the
        code, or read off configuration (an attribute, a global, `cfg.items()`),
        rather than computed from data here or given as a parameter."""
        kind = type(node)
        if kind in (ast.Tuple, ast.List, ast.Set):
            return True
        if kind is ast.Name:
            if scope.kind == FUNCTION and node.id in scope.parameters:
                return False
            if (scope.function, node.id) not in self.bound_last:
                # A global, an import: configuration. A local bound otherwise (a loop's target): unknown.
                return scope.kind != FUNCTION or node.id not in scope.bound
            bound = self.bound_last[scope.function, node.id]
            return bound is not None and depth < 3 and self.fixed_values(bound, scope, depth + 1)
        if kind is ast.Attribute:
            return True  # `self.layers`, `cfg.names`: what an object holds
        if kind is ast.Subscript:
            return self.fixed_values(node.value, scope, depth)
        if kind is ast.Call:
            builtin = _builtin(node, scope)
            if builtin == "builtins.range":
                turns = _range_length(node)
                return turns is not None and turns <= _FEW_TURNS
            if builtin in _PASSED_THROUGH:
                return bool(node.args) and all(self.fixed_values(arg, scope, depth) for arg in node.args)
            if type(node.func) is ast.Attribute and node.func.attr in ("items", "keys", "values") and not node.args:
                return self.fixed_values(node.func.value, scope, depth)
        return False

    def _name_use(self, node: ast.Name, parent, shadowed: frozenset[str], scope: Scope, context: Context) -> None:
        name = node.id
        if name in shadowed:
            return
        ref = scope.resolve(name)
        reader = scope.function
        chain = _attributes(parent) if type(parent) is ast.Attribute else ()
        if reader and (ref.function != reader if ref.is_local else self._own_global(ref, name, scope, chain)):
            self.outer_reads.setdefault(reader, set()).add(ref.attribute(*chain) if chain else ref)
        if ref.is_local:
            function, local = ref.function, ref.name
        else:
            function, _, local = ref.name.rpartition(".")
        function_scope = self.function_scopes.get(function)
        if function_scope is None:
            return
        if not ref.is_local or local not in function_scope.parameters:
            tracked = self.tracked.get((function, local))
            if tracked is not None:
                if (
                    type(parent) is ast.Call
                    and parent.func is node
                    and not context.lambdas
                    and scope.qualname == function
                ):
                    tracked.calls.append(self.loop_depth.get(function, 0) + context.repeated)
                elif type(parent) is ast.Call and not context.lambdas and scope.qualname == function:
                    tracked.passed = True
                else:
                    tracked.escapes = True
            return
        if chain and (context.lambdas or scope.qualname != function):
            self._closure_read(ref.attribute(*chain), function, scope, context, id(parent) in self.shape_nodes)
        reads, opaque, passed_to = self.parameter_uses.setdefault((function, local), (set(), [], set()))
        if chain:
            reads.add(chain)
        elif parent is _IDENTITY_TEST:
            return
        elif type(parent) is ast.Call and parent.func is not node:
            callee = _dotted_name(parent.func)
            passed_to.add(scope.resolve_dotted(callee) if callee is not None else None)
        elif not opaque:
            opaque.append(True)

    def _kept_depth(self, node: ast.AST, scope: Scope) -> int:
        kind = type(node)
        if kind is ast.Tuple and len(node.elts) == 2:
            return 2
        if kind is not ast.Call:
            return 1
        if type(node.func) is ast.Call:
            return 2
        callee = _dotted_name(node.func)
        kept = KEPT_DEEP.get(scope.resolve_dotted(callee).dotted, 1) if callee is not None else 1
        values = _argument_values(node)
        if any(type(value) in _CONTAINERS or self._wraps(value, scope) for value in values):
            return max(kept, 2)
        if callee is not None and callee.rpartition(".")[2] in f.TRANSFORM_NAMES and values:
            if type(values[0]) is ast.Call:
                return max(kept, 2)
        return kept

    @staticmethod
    def _wraps(node: ast.AST, scope: Scope) -> bool:
        if type(node) is not ast.Call:
            return False
        callee = _dotted_name(node.func)
        return callee is not None and scope.resolve_dotted(callee).dotted in WRAPPING_CALLS

    def _value(self, node: ast.AST, scope: Scope, shadowed: frozenset[str], depth: int) -> f.Value:
        """The step of `_VALUE_STEPS` for the node's class. Past the kept depth
        (`depth <= 0`) `value` drops a Value's arguments unless they are a
        GETATTRS' or arithmetic's, so a step need not read them."""
        location = self.location(node)
        step = _VALUE_STEPS.get(type(node))
        if step is None:
            return f.Value(f.OTHER, location)
        return step(self, node, scope, location, shadowed, depth)

    def _constant_value(
        self, node: ast.Constant, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if node.value is Ellipsis:
            return f.Value(f.OTHER, location)
        if isinstance(node.value, (str, bytes)) and not _literal_string(self.source, node):
            return f.Value(f.CONSTANT, location)  # LibCST's ConcatenatedString
        return f.Value(f.CONSTANT, location, literal=node.value)

    def _name_value(
        self, node: ast.Name | ast.Attribute, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        return name_value(_dotted_name(node), scope, location, shadowed)

    def _negative_value(
        self, node: ast.UnaryOp, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if type(node.op) is not ast.USub:
            return f.Value(f.OTHER, location)
        operand = self.value(node.operand, scope, shadowed, depth - 1)
        if operand.kind == f.CONSTANT and isinstance(operand.literal, (int, float, complex)):
            return f.Value(f.CONSTANT, location, literal=-operand.literal)
        return f.Value(f.OTHER, location)

    def _display_value(
        self,
        node: ast.Tuple | ast.List | ast.Set,
        scope: Scope,
        location: f.Location,
        shadowed: frozenset[str],
        depth: int,
    ) -> f.Value:
        elements = tuple(
            (
                f.Value(f.OTHER, self.location(element), literal="*")
                if type(element) is ast.Starred
                else self.value(element, scope, shadowed, depth - 1)
            )
            for element in node.elts
        )
        literal = None
        if all(element.kind == f.CONSTANT for element in elements):
            literal = tuple(element.literal for element in elements)
        return f.Value(_KINDS[type(node)], location, args=elements, literal=literal)

    def _generator_value(
        self, node: ast.GeneratorExp, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        return self._getattrs(node, scope, shadowed, location) or f.Value(f.OTHER, location)

    def _kind_value(
        self, node: ast.AST, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        """A Value whose kind is all its syntax tells: an f-string, a list, set or dict comprehension."""
        return f.Value(_KINDS[type(node)], location)

    def _dict_value(
        self, node: ast.Dict, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if depth <= 0:
            return f.Value(f.DICT, location)
        items = tuple(
            (key.value, self.value(value, scope, shadowed, depth - 1))
            for key, value in zip(node.keys, node.values)
            if type(key) is ast.Constant and isinstance(key.value, str) and _literal_string(self.source, key)
        )
        return f.Value(f.DICT, location, keywords=items)

    def _lambda_value(
        self, node: ast.Lambda, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if depth <= 0:
            return f.Value(f.LAMBDA, location)
        names = tuple(arg.arg for arg, _, _ in _parameters(node.args))
        body = self.value(node.body, scope, shadowed | frozenset(names), depth - 1)
        return f.Value(f.LAMBDA, location, args=(body,), literal=names)

    def _named_value(
        self, node: ast.NamedExpr, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        return self.value(node.value, scope, shadowed, depth)

    def _or_value(
        self, node: ast.BoolOp, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if type(node.op) is not ast.Or:
            return f.Value(f.OTHER, location)
        if depth <= 0:
            return f.Value(f.OTHER, location, literal=f.FALLBACK)
        last = self.value(node.values[-1], scope, shadowed, depth - 1)
        return f.Value(f.OTHER, location, args=(last,), literal=f.FALLBACK)

    def _conditional_value(
        self, node: ast.IfExp, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        if depth <= 0:
            return f.Value(f.OTHER, location, literal=f.FALLBACK)
        branches = (
            self.value(node.body, scope, shadowed, depth - 1),
            self.value(node.orelse, scope, shadowed, depth - 1),
        )
        return f.Value(f.OTHER, location, args=branches, literal=f.FALLBACK)

    def _arithmetic_value(
        self, node: ast.BinOp, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        operands = (
            self.value(node.left, scope, shadowed, depth - 1),
            self.value(node.right, scope, shadowed, depth - 1),
        )
        return f.Value(f.OTHER, location, args=operands, literal=f.ARITHMETIC)

    def _subscript_value(
        self, node: ast.Subscript, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        """`x[None]`, `x[:, None]`, `x[1:]`: an index that adds an axis or slices
        keeps an array an array, so it is read as arithmetic on `x` (an array
        when `x` is one). A string key (`PRESETS["small"]`) is kept with its
        container; other indexing (`x[0]`) says nothing."""
        index = node.slice
        if type(index) is ast.Constant and isinstance(index.value, str):
            container = self.value(node.value, scope, shadowed, min(depth - 1, 0))
            key = f.Value(f.CONSTANT, self.location(index), literal=index.value)
            return f.Value(f.OTHER, location, args=(container, key), literal=f.ITEM)
        parts = index.elts if type(index) is ast.Tuple else [index]
        if not parts or not all(
            type(part) is ast.Slice or (type(part) is ast.Constant and part.value in (None, Ellipsis)) for part in parts
        ):
            return f.Value(f.OTHER, location)
        return f.Value(f.OTHER, location, args=(self.value(node.value, scope, shadowed, depth - 1),), literal=f.ARITHMETIC)

    def _getattrs(
        self, node: ast.GeneratorExp, scope: Scope, shadowed: frozenset[str], location: f.Location
    ) -> f.Value | None:
        if len(node.generators) != 1 or node.generators[0].ifs or type(node.generators[0].target) is not ast.Name:
            return None
        loop, element = node.generators[0], node.elt
        if type(element) is not ast.Call or _dotted_name(element.func) != "getattr":
            return None
        arguments = _arguments(element)
        if len(arguments) != 2 or scope.resolve_dotted("getattr").dotted != "builtins.getattr":
            return None
        name = arguments[1][2]
        if type(name) is not ast.Name or name.id != loop.target.id or arguments[0][0] in ("*", "**"):
            return None
        owner = self.value(arguments[0][2], scope, shadowed, 0)
        names = self.value(loop.iter, scope, shadowed, 0)
        return f.Value(f.GETATTRS, location, args=(owner, names))

    def _call_value(
        self, node: ast.Call, scope: Scope, location: f.Location, shadowed: frozenset[str], depth: int
    ) -> f.Value:
        callee = _dotted_name(node.func)
        if callee is not None and callee.partition(".")[0] in shadowed:
            callee = None
        ref = scope.resolve_dotted(callee) if callee is not None else None
        if callee is None and type(node.func) is ast.Attribute and type(node.func.value) is ast.Call:
            inner = _dotted_name(node.func.value.func)
            if inner is not None and not scope.resolve_dotted(inner).is_local:
                ref = f.Ref(f"{scope.resolve_dotted(inner).name}().{node.func.attr}")
            elif inner is not None:
                # `self.viz.window().reg_key_handler(...)`: named as written, a local of no value, for its
                # last name (a handler registered on what a call returns runs on every event).
                ref = f.Ref(f"{inner}().{node.func.attr}", scope.resolve_dotted(inner).function)
        if depth <= 0:
            return f.Value(f.CALL, location, ref)  # `value` would drop what is inside
        args = tuple(
            (
                f.Value(f.OTHER, self.location(arg), literal="*")
                if type(arg) is ast.Starred
                else self.value(arg, scope, shadowed, depth - 1)
            )
            for arg in node.args
        )
        keywords = tuple((kw.arg or "**", self.value(kw.value, scope, shadowed, depth - 1)) for kw in node.keywords)
        func = None
        if callee is None and type(node.func) is ast.Call:
            func = self.value(node.func, scope, shadowed, depth - 1)
        return f.Value(f.CALL, location, ref, args, keywords, func=func)

    def annotation_refs(self, node: ast.AST, scope: Scope, source: _Source | None = None) -> tuple[f.Ref, ...]:
        """What an annotation names; `source` is the text of a string annotation being read."""
        source = source or self.source
        if type(node) is ast.Constant:
            if not isinstance(node.value, str) or not _literal_string(source, node):
                return ()
            text = node.value.strip()
            try:
                node = ast.parse(text, mode="eval").body
            except (SyntaxError, ValueError):
                return ()
            source = _Source(text)
        kind = type(node)
        dotted = _dotted_name(node)
        if dotted is not None:
            return () if dotted == "None" else (scope.resolve_dotted(dotted),)
        if kind is ast.BinOp and type(node.op) is ast.BitOr:
            return self.annotation_refs(node.left, scope, source) + self.annotation_refs(node.right, scope, source)
        if kind is ast.Subscript:
            base = _dotted_name(node.value)
            if base is None:
                return ()
            ref = scope.resolve_dotted(base)
            if ref.dotted in CLASS_VARIABLES:
                return (CLASS_VARIABLE,)
            if ref.dotted not in STATIC_MARKERS and ref.dotted not in TYPING_WRAPPERS:
                return (ref,)
            elements = _subscript_elements(node, source)
            if ref.dotted in STATIC_MARKERS:
                inner = elements[0] if elements else None
                return (ref, *(self.annotation_refs(inner, scope, source) if inner is not None else ()))
            elements = [element for element in elements if element is not None]
            if ref.last == "Annotated":
                elements = elements[:1]
            refs: tuple[f.Ref, ...] = ()
            for element in elements:
                refs += self.annotation_refs(element, scope, source)
            return refs
        return ()

    def _placed_inside_fstring(self, holder: ast.FormattedValue) -> None:
        """Before Python 3.12 `ast` places the nodes inside an f-string by
        arithmetic on the string's text, and can get it wrong: where a node
        that positions are read from does not span its own text, every node
        inside is placed at the f-string itself, so a finding there points at
        the string rather than at a wrong column."""
        node = holder.value
        if not any(isinstance(inside, (ast.Call, ast.Lambda)) for inside in ast.walk(node)):
            return  # no position is recorded inside
        # The parts of a nested f-string carry the whole string's position.
        parts = {id(part) for inside in ast.walk(node) if isinstance(inside, ast.JoinedStr) for part in inside.values}
        for inside in ast.walk(node):
            if not isinstance(inside, ast.expr) or isinstance(inside, (ast.Starred, ast.Slice)) or id(inside) in parts:
                continue
            if isinstance(getattr(inside, "ctx", None), ast.Store):
                continue  # a comprehension's target: no position is read from it
            if not self._spans_itself(inside):
                for misplaced in ast.walk(node):
                    if isinstance(misplaced, (ast.expr, ast.keyword, ast.arg)):
                        ast.copy_location(misplaced, holder)
                return

    def _spans_itself(self, node: ast.expr) -> bool:
        """Whether the text at a node's position parses as that node."""
        try:
            line, column = self.source.start(node)
            end_line, end_column = node.end_lineno, self.source.column(node.end_lineno, node.end_col_offset)
            lines = self.source.lines[line - 1 : end_line]
            text = "\n".join(lines)[column : len("\n".join(lines)) - len(lines[-1]) + end_column]
            return ast.dump(ast.parse(f"(\n{text}\n)", mode="eval").body) == ast.dump(node)
        except (SyntaxError, ValueError, IndexError, TypeError):
            return False

    # Helpers

    def location(self, node: ast.AST) -> f.Location:
        source = self.source
        line, column = node.lineno, node.col_offset
        if not source.ascii:
            column = source.column(line, column)
        kind = type(node)
        if kind is ast.GeneratorExp and source.char(line, column) == "(":
            line, column = source.next_token(line, column + 1)  # LibCST: inside its own parentheses
        elif kind is ast.Tuple and source.char(line, column) == "(":
            line, column = self._grouped(node, line, column)
        return f.Location(line, column + 1)

    def _grouped(self, node: ast.Tuple, line: int, column: int) -> tuple[int, int]:
        """A parenthesized tuple's start with the grouping parentheses around it,
        which LibCST counts as the tuple's own: `((a, b))` starts at the first."""
        source = self.source
        end = node.end_lineno, source.column(node.end_lineno, node.end_col_offset)
        while True:
            after = source.next_token(*end)
            if source.char(*after) != ")":
                return line, column
            before_line, before, char = source.previous_char(line, column)
            if char != "(":
                return line, column
            prior_line, prior_column, prior = source.previous_char(before_line, before)
            if prior and (prior.isalnum() or prior in "_)]'\""):
                word = re.search(r"\w+$", source.lines[prior_line - 1][: prior_column + 1])
                if word is None or not keyword.iskeyword(word.group()):
                    return line, column  # a call's parentheses, not the tuple's
            line, column, end = before_line, before, (after[0], after[1] + 1)


_KINDS = {
    ast.Tuple: f.TUPLE,
    ast.List: f.LIST,
    ast.Set: f.SET,
    ast.JoinedStr: f.CONSTANT,
    ast.ListComp: f.LIST,
    ast.SetComp: f.SET,
    ast.DictComp: f.DICT,
}
# `_AstExtractor._value`'s step for each kind of expression; any other is OTHER.
_VALUE_STEPS = {
    ast.Constant: _AstExtractor._constant_value,
    ast.Name: _AstExtractor._name_value,
    ast.Attribute: _AstExtractor._name_value,
    ast.Call: _AstExtractor._call_value,
    ast.UnaryOp: _AstExtractor._negative_value,
    ast.Tuple: _AstExtractor._display_value,
    ast.List: _AstExtractor._display_value,
    ast.Set: _AstExtractor._display_value,
    ast.GeneratorExp: _AstExtractor._generator_value,
    ast.JoinedStr: _AstExtractor._kind_value,
    ast.ListComp: _AstExtractor._kind_value,
    ast.SetComp: _AstExtractor._kind_value,
    ast.DictComp: _AstExtractor._kind_value,
    ast.Dict: _AstExtractor._dict_value,
    ast.Lambda: _AstExtractor._lambda_value,
    ast.NamedExpr: _AstExtractor._named_value,
    ast.BoolOp: _AstExtractor._or_value,
    ast.IfExp: _AstExtractor._conditional_value,
    ast.BinOp: _AstExtractor._arithmetic_value,
    ast.Subscript: _AstExtractor._subscript_value,
}


# Scopes: the names each scope binds, found before any is resolved.


def _bind_block(statements, scope: Scope, table: ScopeTable, module_name: str, is_package: bool) -> None:
    for statement in statements:
        _bind_statement(statement, scope, table, module_name, is_package)


def _bind_statement(node: ast.stmt, scope: Scope, table: ScopeTable, module_name: str, is_package: bool) -> None:
    kind = type(node)
    if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
        scope.bound.add(node.name)
        scope.definitions.add(node.name)
        inner = Scope(CLASS if kind is ast.ClassDef else FUNCTION, f"{scope.qualname}.{node.name}", scope)
        table.add(node, inner)
        if inner.kind == FUNCTION:
            for arg, _, _ in _parameters(node.args):
                inner.bound.add(arg.arg)
                inner.parameters.append(arg.arg)
        _bind_block(node.body, inner, table, module_name, is_package)
    elif kind in _COMPOUNDS and kind is not ast.Match:
        if kind is ast.For or kind is ast.AsyncFor:
            _bind_target(node.target, scope)
        elif kind in _WITHS:
            for item in node.items:
                if item.optional_vars is not None:
                    _bind_target(item.optional_vars, scope)
        elif kind is ast.Try or kind in _TRY_STAR:
            for handler in node.handlers:
                if handler.name is not None:
                    scope.bound.add(handler.name)
        # `scopes._blocks`' order: body, else, finally, handlers.
        for block in (node.body, getattr(node, "orelse", ()), getattr(node, "finalbody", ())):
            _bind_block(block, scope, table, module_name, is_package)
        for handler in getattr(node, "handlers", ()):
            _bind_block(handler.body, scope, table, module_name, is_package)
    elif kind is ast.Match:
        for case in node.cases:
            _bind_block(case.body, scope, table, module_name, is_package)
    else:
        _bind_small(node, scope, module_name, is_package)


def _bind_small(node: ast.stmt, scope: Scope, module_name: str, is_package: bool) -> None:
    kind = type(node)
    if kind is ast.Import:
        for alias in node.names:
            if alias.asname is not None:
                scope.imports[alias.asname] = alias.name
            else:
                head = alias.name.partition(".")[0]
                scope.imports[head] = head
    elif kind is ast.ImportFrom:
        base = _import_base(node, module_name, is_package)
        if base is None or node.names[0].name == "*":
            return
        for alias in node.names:
            scope.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    elif kind is ast.Assign:
        for target in node.targets:
            _bind_target(target, scope)
        if scope.kind == MODULE and len(node.targets) == 1:
            source = _dotted_name(node.value)
            if type(node.targets[0]) is ast.Name and source is not None:
                scope.aliases[node.targets[0].id] = source
        elif scope.kind == FUNCTION and len(node.targets) == 1 and type(node.value) is ast.IfExp:
            for name, source in _chosen_names(node.targets[0], node.value):
                scope.aliases[name] = source
    elif kind is ast.AnnAssign or kind is ast.AugAssign:
        _bind_target(node.target, scope)
    elif kind is ast.Global:
        scope.globals.update(node.names)
    elif kind is ast.Nonlocal:
        scope.nonlocals.update(node.names)
    elif kind is ast.Delete:
        for target in node.targets:
            _bind_target(target, scope)


def _chosen_names(target: ast.AST, value: ast.AST) -> list[tuple[str, str]]:
    """The local names an assignment in a function binds to a dotted name, each
    with that name: `jit = jax.jit`, or a choice between dotted names made by a
    condition, read as its first (`func = jax.jit if n == 1 else jax.pmap`,
    `func, kw = (jax.jit, {}) if n == 1 else (jax.pmap, {...})`): a call of
    the local calls one of them. Only where each choice is a dotted name."""
    return _names_chosen(target, [value.body, value.orelse] if type(value) is ast.IfExp else [value])


def _names_chosen(target: ast.AST, choices: list[ast.AST]) -> list[tuple[str, str]]:
    """`_chosen_names` for the values a condition chooses between (one value: no choice)."""
    if type(target) is ast.Name:
        sources = [_dotted_name(choice) for choice in choices]
        return [(target.id, sources[0])] if all(sources) else []
    if type(target) is not ast.Tuple and type(target) is not ast.List:
        return []
    if not all(type(d) in (ast.Tuple, ast.List) and len(d.elts) == len(target.elts) for d in choices):
        return []
    found = []
    for position, element in enumerate(target.elts):
        found += _names_chosen(element, [d.elts[position] for d in choices])
    return found


def _bind_target(target: ast.AST, scope: Scope) -> None:
    kind = type(target)
    if kind is ast.Name:
        if target.id in scope.bound and scope.kind == FUNCTION:
            scope.rebound.add(target.id)
        scope.bound.add(target.id)
    elif kind is ast.Tuple or kind is ast.List:
        for element in target.elts:
            _bind_target(element, scope)
    elif kind is ast.Starred:
        _bind_target(target.value, scope)


def _import_base(node: ast.ImportFrom, module_name: str, is_package: bool) -> str | None:
    return import_base(node.module or "", node.level, module_name, is_package)
