"""The facts of a module being gathered, and the steps that look at facts
rather than at nodes: `ast_reader` gives the node-specific steps (statements,
values, positions), this class the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jaxcheck import facts as f
from jaxcheck.extraction.scopes import FUNCTION, Scope, ScopeTable

TYPING_WRAPPERS = frozenset(
    {
        "typing.Optional",
        "typing.Union",
        "typing.Annotated",
        "typing.Final",
        "typing_extensions.Optional",
        "typing_extensions.Union",
        "typing_extensions.Annotated",
        "typing_extensions.Final",
    }
)
_ARITHMETIC_DEPTH = 4  # levels of operands kept past the others' depth
# Calls whose arguments are kept deeper than one level, and how deep: the
# calls that build a transform or set an attribute, the registrations of
# pytrees (a lambda flatten's aux_data sits four levels down), and field
# specifiers with a `metadata` dict.
KEPT_DEEP = {
    "functools.partial": 2,
    "builtins.setattr": 2,
    "builtins.object.__setattr__": 2,
    "dataclasses.field": 2,
    "jax.tree_util.register_pytree_node": 4,
    "jax.tree_util.register_pytree_with_keys": 4,
}
CLASS_VARIABLES = frozenset({"typing.ClassVar", "typing_extensions.ClassVar"})
CLASS_VARIABLE = f.Ref("typing.ClassVar")  # an annotation that declares no instance field
STATIC_MARKERS = frozenset({"jax_dataclasses.Static", "jax_dataclasses._dataclasses.Static"})
_ATTRIBUTE_WRITERS = frozenset({"builtins.setattr", "builtins.delattr", "builtins.object.__setattr__"})
# Calls whose own arguments are kept one level deeper when they are passed:
# containers built from the values written, and functions wrapped before a jit.
WRAPPING_CALLS = frozenset({"builtins.frozenset", "builtins.tuple", "builtins.dict", *f.WRAPPERS})


def name_value(dotted: str | None, scope: Scope, location: f.Location, shadowed: frozenset[str]) -> f.Value:
    """The value of a name or attribute chain, from its dotted spelling (None
    when it is not one): a lambda's parameter when `shadowed` names its head,
    else what the scope binds it to."""
    if dotted is None:
        return f.Value(f.OTHER, location)
    head, *rest = dotted.split(".")
    if head in shadowed:
        return f.Value(f.NAME, location, f.Ref(head, f.LAMBDA_SCOPE, tuple(rest)))
    return f.Value(f.NAME, location, scope.resolve_dotted(dotted))


class FactsBuilder:
    """The facts of one module as a reader walks it; `tree` is the reader's
    tree, `scopes` its names bound (a first pass), `statement`, `value`'s
    `_value` and `_kept_depth`, and `location` the reader's own steps."""

    def __init__(self, tree, path: str, module_name: str, scopes: ScopeTable) -> None:
        self.tree = tree
        self.path = path
        self.module_name = module_name
        self._top_package = module_name.partition(".")[0]
        self.scopes = scopes
        self.classes: list[f.ClassFacts] = []
        self.functions: list[f.FunctionFacts] = []
        self.calls: list[tuple[str, f.Value]] = []
        self.bindings: list[f.Binding] = []
        self.writes: list[f.AttributeWrite] = []
        self.function_scopes: dict[str, Scope] = {}
        self.parameter_uses: dict[tuple[str, str], tuple[set[tuple[str, ...]], list[bool], set[f.Ref | None]]] = {}
        self.returns: dict[str, list[f.Value]] = {}
        self.raising: set[str] = set()
        self._values: dict[tuple[int, int], f.Value] = {}
        self.loop_depth: dict[str, int] = {}  # function qualname ("" for the module) -> loops open in it
        self.branch_depth: dict[str, int] = {}  # the same -> ifs, loops, trys and matches open in it
        self.tracked: dict[tuple[str, str], _Tracked] = {}  # (function, local) -> how it is used
        self.closure_reads: dict[f.Location, set[f.Ref]] = {}  # lambda -> enclosing parameters' attributes it reads
        self.free_reads: dict[str, set[f.Ref]] = {}  # nested function -> the same
        self.value_reads: dict[f.Location | str, set[f.Ref]] = {}  # lambda or nested function -> those read for more than their shape
        self.shape_nodes: set[int] = set()  # ids of attribute chains only tested for keys or length: `"k" in p.d`, `len(p.d)`
        self.held_calls: dict[tuple[str, str], list] = {}  # (function, parameter) -> `ParameterUse.held_calls`
        self.outer_reads: dict[str, set[f.Ref]] = {}  # function -> module-level names and enclosing locals read
        self.discarded: list[f.Location] = []
        self.looped: list[f.Location] = []
        self.defined_in_loop: set[str] = set()  # functions a `def` inside a loop makes anew on each turn
        self.loop_calls: set[tuple[str, f.Ref]] = set()
        self.item_writes: list[f.ItemWrite] = []
        self.repeated: list[f.Location] = []
        self.looped_writes: list[f.Location] = []
        self.loop_values: list[f.LoopValue] = []
        self.dispatches: list[f.Dispatch] = []
        self._class_attributes: list[list[f.ClassAttribute]] = []  # one list per class being read

    def run(self) -> f.ModuleFacts:
        self.statements(self.tree.body, self.scopes.module)
        functions = tuple(self._finish_function(function) for function in self.functions)
        return f.ModuleFacts(
            path=self.path,
            module=self.module_name,
            classes=tuple(self.classes),
            functions=functions,
            calls=tuple(self.calls),
            bindings=tuple(self.bindings),
            attribute_writes=tuple(self.writes),
            imports=self.scopes.module.exported_imports(),
            closures=tuple(
                f.Closure(location, tuple(sorted(reads)), self._shape_reads(location, reads))
                for location, reads in self.closure_reads.items()
            ),
            discarded=tuple(self.discarded),
            looped=tuple(self.looped),
            loop_calls=tuple(sorted(self.loop_calls)),
            item_writes=tuple(self.item_writes),
            repeated=tuple(self.repeated),
            looped_writes=tuple(self.looped_writes),
            loop_values=tuple(self.loop_values),
            dispatches=tuple(self.dispatches),
        )

    def statements(self, statements, scope: Scope) -> None:
        for statement in statements:
            self.statement(statement, scope)

    def _finish_function(self, function: f.FunctionFacts) -> f.FunctionFacts:
        scope = self.function_scopes[function.qualname]
        locals_ = tuple(
            f.LocalUse(name, record.location, record.loop_depth, tuple(record.calls), record.escapes, record.passed)
            for (owner, name), record in self.tracked.items()
            if owner == function.qualname
        )
        uses = []
        for name in scope.parameters:
            record = self.parameter_uses.get((function.qualname, name))
            if record is not None:
                reads, opaque, passed_to = record
                passed = tuple(sorted(passed_to, key=lambda ref: (ref is None, str(ref))))
                held = tuple(self.held_calls.get((function.qualname, name), ()))
                uses.append(f.ParameterUse(name, tuple(sorted(reads)), bool(opaque), passed, held))
        return f.FunctionFacts(
            qualname=function.qualname,
            name=function.name,
            location=function.location,
            parameters=function.parameters,
            decorators=function.decorators,
            uses=tuple(uses),
            returns=tuple(self.returns.get(function.qualname, ())),
            raises=function.qualname in self.raising,
            class_qualname=function.class_qualname,
            locals=locals_,
            free_reads=tuple(sorted(self.free_reads.get(function.qualname, ()))),
            shape_reads=self._shape_reads(function.qualname, self.free_reads.get(function.qualname, ())),
            outer_reads=tuple(sorted(self.outer_reads.get(function.qualname, ()))),
            loop_depth=function.loop_depth,
        )

    def _own_global(self, ref: f.Ref, name: str, scope: Scope, chain: tuple[str, ...] = ()) -> bool:
        """A module-level name of this project (its top package), not a `def` or `class`
        unless an attribute is read off it (`Config.scale`, a class attribute): a value a
        trace may read. Libraries' names (`jnp`, `jax.lax`) are not followed."""
        if ref.name.partition(".")[0] != self._top_package:
            return False
        return bool(chain) or not (ref.name == f"{self.module_name}.{name}" and name in scope.module.definitions)

    def _closure_read(self, read: f.Ref, owner: str, scope: Scope, context: Context, shape: bool = False) -> None:
        """Record `param.attr` read from inside lambdas or nested functions of the parameter's function;
        `shape` when this read only tests its keys or length."""
        for location in context.lambdas:
            self.closure_reads.setdefault(location, set()).add(read)
            if not shape:
                self.value_reads.setdefault(location, set()).add(read)
        while scope is not None and scope.qualname != owner:
            if scope.kind == FUNCTION:
                self.free_reads.setdefault(scope.qualname, set()).add(read)
                if not shape:
                    self.value_reads.setdefault(scope.qualname, set()).add(read)
            scope = scope.parent

    def _shape_reads(self, reader: f.Location | str, reads) -> tuple[f.Ref, ...]:
        """The reads of a lambda or nested function only ever tested for their keys or length:
        no other read is the same chain or one inside it (`p.opt.lr` reads a value of `p.opt`)."""
        values = self.value_reads.get(reader, set())
        return tuple(
            sorted(read for read in reads if not any(value.within(read) for value in values))
        )

    def _track(self, scope: Scope, name: str, location: f.Location) -> None:
        """Follow how a function uses a local that may hold a function made on each call."""
        if scope.kind != FUNCTION:
            return
        key = (scope.qualname, name)
        if key in self.tracked:
            self.tracked[key].escapes = True
        else:
            self.tracked[key] = _Tracked(location, self.loop_depth.get(scope.qualname, 0))

    def _makes_function(self, call: f.Value) -> bool:
        """A call given a lambda, a `partial`, a `vmap` or `grad` of a function, a
        nested function or a method of a local object: the shape of a transform
        making a function on each call."""
        if call.kind != f.CALL or not call.args:
            return False
        first = call.args[0]
        if first.kind == f.LAMBDA:
            return True
        if first.kind == f.CALL:  # `functools.partial(...)`, `jax.vmap(...)`: a new function object each call
            return first.dotted == "functools.partial" or first.dotted in f.WRAPPERS
        if first.kind != f.NAME or first.ref is None:
            return False
        if first.ref.is_local:
            return bool(first.ref.attributes)
        prefix = self.module_name + "."
        if first.ref.name.startswith(prefix) and "." in first.ref.name[len(prefix) :]:
            return True  # a method of an object bound in this module (or of a class)
        if first.ref.name in self.defined_in_loop:
            return True
        nested = self.function_scopes.get(first.ref.name)
        return nested is not None and nested.parent is not None and nested.parent.kind == FUNCTION

    def _call(self, node, scope: Scope, shadowed: frozenset[str], context: Context) -> None:
        value = self.value(node, scope, shadowed)
        function = self._function_of(scope)
        if self.loop_depth.get(function, 0) or context.repeated:
            self.repeated.append(value.location)
            if value.ref is not None:
                self.loop_calls.add((function, value.ref))
            if value.func is not None and self._makes_function(value.func):
                self.looped.append(value.location)
        # A builtin is never a transformed function, a class or a method of the project.
        if not value.dotted.startswith("builtins."):
            self.calls.append((function, value))
        if value.dotted in _ATTRIBUTE_WRITERS and len(value.args) >= 2:
            target, attribute = value.args[0], value.args[1]
            if target.kind == f.NAME and target.ref is not None:
                name = attribute.literal if isinstance(attribute.literal, str) else "*"
                written = value.args[2] if len(value.args) > 2 else None
                named_by = attribute.ref if name == "*" and attribute.kind == f.NAME else None
                self.writes.append(f.AttributeWrite(target.ref, name, value.location, function, written, named_by))
                self.note_loop(value.location, function)

    def note_loop(self, location: f.Location, function: str) -> None:
        """A write made in a loop of its scope: it runs again after what follows it in the loop."""
        if self.loop_depth.get(function, 0):
            self.looped_writes.append(location)

    def value(self, node, scope: Scope, shadowed: frozenset[str] = frozenset(), depth: int | None = None) -> f.Value:
        """The Value of an expression; names in `shadowed` (lambda parameters,
        comprehension variables) are not the scope's and stay unknown.

        A Value keeps its arguments one level deep (`f(g(x))` keeps `g` but not
        its `x`): every call is recorded at the top level anyway, and rules look
        no deeper, except into the calls of `KEPT_DEEP` and into pairs
        (`return children, (self.n, self.mask)`). `depth` is how many levels of
        arguments are still kept. A lambda keeps its body as its one argument,
        and its parameters' names as
        its literal; a dict display keeps its string keys as keywords.

        A GETATTRS keeps its two names at any depth; arithmetic, and an item
        (`PRESETS["small"]`: the container and the key), their operands
        `_ARITHMETIC_DEPTH` levels further (a long `a + b + ...` stays shallow).

        A name a lambda or comprehension binds is a NAME whose ref is local to
        `LAMBDA_SCOPE` (`lambda p: p.mask` reads `p.mask` there): no scope defines it.
        """
        if depth is None:
            depth = self._kept_depth(node, scope)
        elif depth < -_ARITHMETIC_DEPTH:
            depth = -_ARITHMETIC_DEPTH
        key = (id(node), depth)
        known = self._values.get(key)
        if known is None:
            known = self._value(node, scope, shadowed, depth)
            # Arithmetic keeps its operands a few levels further: they tell an array (`2 * np.ones(3)`).
            kept = known.kind == f.GETATTRS or known.literal in (f.ARITHMETIC, f.ITEM) and depth > -_ARITHMETIC_DEPTH
            if depth <= 0 and not kept and (known.args or known.keywords or known.func):
                known = replace(known, args=(), keywords=(), func=None)
            self._values[key] = known
        return known

    @staticmethod
    def _function_of(scope: Scope) -> str:
        return scope.function


@dataclass(frozen=True)
class Context:
    lambdas: tuple[f.Location, ...]  # the lambdas an expression is inside, outermost first
    repeated: bool  # inside a comprehension


class _Tracked:
    """A local being followed (see `LocalUse`)."""

    def __init__(self, location: f.Location, loop_depth: int) -> None:
        self.location = location
        self.loop_depth = loop_depth
        self.calls: list[int] = []
        self.escapes = False
        self.passed = False
