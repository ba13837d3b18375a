"""The facts extracted from one module: plain frozen data, no LibCST.

Everything downstream (index, rules, cache) reads these and never the syntax
tree, so a module is parsed once and its facts can be kept and compared.

Names are resolved at extraction. A *ref* is either an absolute dotted name
(``"jax.jit"``, ``"pkg.mod.Config"``, ``"builtins.list"``), or, for a name
local to a function, ``"<function qualname>:<name>"`` (``"pkg.mod.main:cfg"``),
optionally followed by attribute names (``"pkg.mod.main:cfg.scale"``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based line and 1-based column."""

    line: int
    column: int


# Kinds of `Value`.
CALL = "call"  # ref: what is called
NAME = "name"  # ref: the resolved name, possibly with attributes after it
LIST = "list"  # list display or comprehension
DICT = "dict"  # keywords: its items with string keys, when kept
SET = "set"
TUPLE = "tuple"
CONSTANT = "constant"  # number, string, bytes, bool, None, or a tuple of those
LAMBDA = "lambda"  # args: its body, when kept
OTHER = "other"


_PROPERTIES = frozenset({"builtins.property", "functools.cached_property", "abc.abstractproperty"})


@dataclass(frozen=True)
class Value:
    """What an expression is, as far as its syntax tells."""

    kind: str
    location: Location
    ref: str = ""
    args: tuple[Value, ...] = ()
    keywords: tuple[tuple[str, Value], ...] = ()
    literal: object = None  # the Python value of a CONSTANT, a tuple of them for a display, a LAMBDA's parameter names
    func: Value | None = None  # for a CALL of something that is not a dotted name: `jit(f)(x)`

    @property
    def key(self) -> tuple:
        """Tells one expression from another in a module, even after a round trip
        through the cache (which does not keep object identity)."""
        return (self.location, self.kind, self.ref)

    def keyword(self, name: str) -> Value | None:
        for key, value in self.keywords:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str  # "positional", "vararg", "keyword", "varkw" (positional covers pos-only)
    annotation: tuple[str, ...] = ()  # refs named by the annotation (Optional/unions unwrapped)


@dataclass(frozen=True)
class ParameterUse:
    """How a function body (nested functions included) uses one parameter."""

    name: str
    attributes: tuple[str, ...] = ()  # `param.attr` reads
    opaque: bool = False  # used otherwise: stored, returned, put in a container...
    passed_to: tuple[str, ...] = ()  # refs of what it is passed to as an argument ("" when not a name)


@dataclass(frozen=True)
class LocalUse:
    """How a function uses a local it binds to a call's result, or a nested
    function it decorates: enough to tell a throwaway from a kept value."""

    name: str
    location: Location  # the binding, or the nested `def`
    loop_depth: int  # how many loops of the function it is bound in
    calls: tuple[int, ...]  # each place that calls it, as its loop depth (a comprehension is a loop)
    escapes: bool  # used otherwise: returned, stored, passed on, read by a closure, bound again


@dataclass(frozen=True)
class Closure:
    """A lambda that reads attributes of a parameter of the function it is made in."""

    location: Location
    reads: tuple[str, ...]  # refs: "pkg.mod.Model.__init__:self.scale"


@dataclass(frozen=True)
class FunctionFacts:
    qualname: str  # absolute, e.g. "pkg.mod.Vehicle.wheels"
    name: str
    location: Location  # the `def` keyword
    parameters: tuple[Parameter, ...]
    decorators: tuple[Value, ...]
    uses: tuple[ParameterUse, ...]
    returns: tuple[Value, ...] = ()  # the values of its `return` statements
    raises: bool = False  # its own body has a `raise` statement
    class_qualname: str = ""  # set for methods defined directly in a class body
    locals: tuple[LocalUse, ...] = ()
    free_reads: tuple[str, ...] = ()  # for a nested function: attributes it reads of enclosing parameters, as refs

    def parameter_use(self, name: str) -> ParameterUse | None:
        for use in self.uses:
            if use.name == name:
                return use
        return None

    @property
    def positional(self) -> list[str]:
        """The names of the parameters a call can fill by position, in order."""
        return [parameter.name for parameter in self.parameters if parameter.kind == "positional"]

    @property
    def is_property(self) -> bool:
        """Read as an attribute, it is the value it returns, not a bound method."""
        return any(decorator.ref in _PROPERTIES or decorator.ref.endswith(".setter") for decorator in self.decorators)

    @property
    def is_instance_method(self) -> bool:
        """Defined in a class body, and not a staticmethod or classmethod: `self` comes first."""
        if not self.class_qualname or not self.parameters:
            return False
        decorators = {decorator.ref for decorator in self.decorators}
        return not decorators & {"builtins.staticmethod", "builtins.classmethod"}


@dataclass(frozen=True)
class Binding:
    """`name = value` in a scope (module, class body or function)."""

    ref: str  # the bound name's ref
    value: Value
    location: Location


@dataclass(frozen=True)
class AttributeWrite:
    """`target.attribute = ...`, `del target.attribute` or `setattr(target, "attribute", ...)`."""

    target: str  # ref of the object written to
    attribute: str
    location: Location
    function: str = ""  # qualname of the enclosing function, "" at module or class level
    value: Value | None = None


@dataclass(frozen=True)
class ClassAttribute:
    """A name assigned or annotated in a class body (a field, for dataclasses)."""

    name: str
    location: Location
    annotation: tuple[str, ...] = ()  # refs named by the annotation; () when not annotated
    value: Value | None = None


@dataclass(frozen=True)
class ClassFacts:
    qualname: str
    name: str
    location: Location  # the `class` keyword
    bases: tuple[str, ...]  # refs; "" for a base that is not a plain name
    keywords: tuple[tuple[str, str], ...]  # metaclass=... and friends, as refs
    decorators: tuple[Value, ...]
    methods: tuple[str, ...]  # qualnames of the functions defined in the body
    attributes: tuple[ClassAttribute, ...]


@dataclass(frozen=True)
class ModuleFacts:
    path: str
    module: str  # dotted module name
    classes: tuple[ClassFacts, ...]
    functions: tuple[FunctionFacts, ...]
    calls: tuple[tuple[str, Value], ...]  # (enclosing function qualname or "", call)
    bindings: tuple[Binding, ...]  # module and function scopes
    attribute_writes: tuple[AttributeWrite, ...]
    imports: tuple[tuple[str, str], ...] = ()  # module-level name -> the absolute ref it imports
    closures: tuple[Closure, ...] = ()
    discarded: tuple[Location, ...] = ()  # calls made as statements: their result is dropped
    # Calls run on every turn of a loop (or comprehension), of the shapes that
    # make a throwaway function: `t(f)(x)`, or a call made as a statement.
    looped: tuple[Location, ...] = ()
    loop_calls: tuple[tuple[str, str], ...] = ()  # (enclosing function or "", ref called) in a loop
