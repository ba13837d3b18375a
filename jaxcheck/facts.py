"""The facts extracted from one module: plain frozen data, no LibCST.

Everything downstream (model, rules, cache) reads these and never the syntax
tree, so a module is parsed once and its facts can be kept and compared.

Names are resolved at extraction into `Ref`s: what a name means where it is
written, a global dotted name or a function's local, never a string to split.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from operator import attrgetter

# Changes whenever the fields of the facts do: cached facts of another version are not read.
FACTS_VERSION = 14
LAMBDA_SCOPE = "<lambda>"  # the `function` of a name a lambda or comprehension binds


def pickled_by_fields(cls: type) -> type:
    """The class pickles as itself and the values of its fields, read in one
    `attrgetter` call, and unpickles through its `__init__`. The cache and the
    pool's workers pickle millions of facts; the state `dataclasses` gives a
    slotted frozen class is built field by field through `fields()`, four
    times slower to write."""
    names = tuple(field.name for field in dataclasses.fields(cls))
    values = attrgetter(*names)
    if len(names) == 1:
        cls.__reduce__ = lambda self: (cls, (values(self),))
    else:
        cls.__reduce__ = lambda self: (cls, values(self))
    return cls


@pickled_by_fields
@dataclass(frozen=True, order=True, slots=True)
class Ref:
    """What a name stands for, resolved where it is written.

    A global is its absolute dotted name, attributes read off it included
    (`jax.numpy.zeros`, `pkg.settings.Config`, `pkg.main.cfg.scale`): which
    part is the module is for the model to find. A function's local or
    parameter is its `name` in `function` (a qualname; `LAMBDA_SCOPE` for a name a
    lambda or comprehension binds), with the `attributes` read off it.
    """

    name: str
    function: str = ""
    attributes: tuple[str, ...] = ()

    @property
    def is_local(self) -> bool:
        return bool(self.function)

    @property
    def dotted(self) -> str:
        """The name with its attributes, as written: `cfg.scale`, `pkg.settings.Config`."""
        return ".".join((self.name, *self.attributes))

    @property
    def base(self) -> Ref:
        """The local itself, without the attributes read off it (a global is its own base)."""
        return Ref(self.name, self.function) if self.attributes else self

    @property
    def parent(self) -> Ref | None:
        """What this is an attribute of: `cfg` for `cfg.scale`; None for a bare local."""
        if self.attributes:
            return Ref(self.name, self.function, self.attributes[:-1])
        if self.function or "." not in self.name:
            return None
        return Ref(self.name.rpartition(".")[0])

    @property
    def last(self) -> str:
        """The last name: `scale` for `cfg.scale`, `Config` for `pkg.settings.Config`."""
        return self.attributes[-1] if self.attributes else self.name.rpartition(".")[2]

    def attribute(self, *names: str) -> Ref:
        if self.function:
            return Ref(self.name, self.function, self.attributes + names)
        return Ref(".".join((self.name, *names)))

    def within(self, other: Ref) -> bool:
        """Whether this is `other` or something read off it (`cfg.scale` within `cfg`)."""
        if self.function != other.function:
            return False
        if self.function:
            return self.name == other.name and self.attributes[: len(other.attributes)] == other.attributes
        return self.name == other.name or self.name.startswith(other.name + ".")

    def __str__(self) -> str:
        return f"{self.function}:{self.dotted}" if self.function else self.name


def project_name(name: str, import_roots: dict[str, str]) -> str:
    """A global dotted name as the project names its modules: `pkg.settings.Config`
    is `services.trainer.pkg.settings.Config` when `pkg` is imported from
    `services/trainer` (`Project.import_roots`)."""
    top, dot, rest = name.partition(".")
    module = import_roots.get(top)
    return name if module is None else module + dot + rest


@pickled_by_fields
@dataclass(frozen=True, order=True, slots=True)
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
GETATTRS = "getattrs"  # args: (the object, the names): `getattr(obj, name) for name in names`
OTHER = "other"
FALLBACK = "or"  # the literal of an OTHER that may be any of its args: `items or []`, `a if c else b`
ARITHMETIC = "op"  # the literal of an OTHER whose args are a binary operator's operands: `scale * noise`
# The literal of an OTHER whose args are a container and a key: `PRESETS["small"]`, or the position a
# tuple-unpacking assignment takes from a call (`dynamic, static = eqx.partition(model, ...)`).
ITEM = "item"


# Transforms that wrap a function without a cache of their own: `jax.jit(jax.vmap(fn))`
# compiles `fn`. Extraction keeps their arguments where they are passed; the model looks through them.
WRAPPERS = frozenset(
    {
        *(f"jax.{name}" for name in ("vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "hessian")),
        "equinox.filter_vmap", "equinox.filter_grad", "flax.nnx.vmap", "flax.nnx.grad",
    }
)
# The namespaces whose functions compute with arrays (`jnp.abs`, `jax.lax.cond`): code that calls
# them computes from arrays' values, and is meant to be traced.
ARRAY_NAMESPACES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.", "jax.image.")
# The names the caching transforms go by (`jax.jit`, `nnx.jit`, `eqx.filter_jit`...).
TRANSFORM_NAMES = frozenset({"jit", "pjit", "pmap", "checkpoint", "remat", "make_jaxpr", "filter_jit", "filter_pmap"})
_PROPERTIES = frozenset({"builtins.property", "functools.cached_property", "abc.abstractproperty"})
_NOT_INSTANCE_METHODS = frozenset({"builtins.staticmethod", "builtins.classmethod"})


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Value:
    """What an expression is, as far as its syntax tells."""

    kind: str
    location: Location
    ref: Ref | None = None  # a NAME's name, a CALL's callee when it is a dotted name
    args: tuple[Value, ...] = ()
    keywords: tuple[tuple[str, Value], ...] = ()
    literal: object = None  # the Python value of a CONSTANT, a tuple of them for a display, a LAMBDA's parameter names
    func: Value | None = None  # for a CALL of something that is not a dotted name: `jit(f)(x)`

    @property
    def key(self) -> tuple:
        """Tells one expression from another in a module, even after a round trip
        through the cache (which does not keep object identity)."""
        return (self.location, self.kind, self.ref)

    @property
    def dotted(self) -> str:
        """The callee or name as a dotted string ("" when there is none): for tables of known names."""
        return self.ref.dotted if self.ref is not None and not self.ref.function else ""

    def keyword(self, name: str) -> Value | None:
        for key, value in self.keywords:
            if key == name:
                return value
        return None


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    kind: str  # "positional", "vararg", "keyword", "varkw" (positional covers pos-only)
    annotation: tuple[Ref, ...] = ()  # what the annotation names (Optional/unions unwrapped)


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ParameterUse:
    """How a function body (nested functions included) uses one parameter."""

    name: str
    reads: tuple[tuple[str, ...], ...] = ()  # attribute chains read off it: ("solver", "dt") for `p.solver.dt`
    opaque: bool = False  # used otherwise: stored, returned, put in a container...
    passed_to: tuple[Ref | None, ...] = ()  # what it is passed to as an argument (None when not a name)
    # Each call of a callable it holds (`p.fn(...)`, `p.fns["k"](*args)`): the attribute chain holding
    # the callable, and the chains of `p` handed whole in the arguments (`p.opt`; also put in a list or
    # dict passed, or stored by the function into an attribute passed: `p.inputs["opt"] = p.opt`).
    held_calls: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...] = ()

    @property
    def attributes(self) -> tuple[str, ...]:
        """The attributes read directly off it (`p.solver`, `p.helper()`)."""
        return tuple(sorted({chain[0] for chain in self.reads}))


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class LocalUse:
    """How a function uses a local it binds to a call's result, or a nested
    function it decorates: enough to tell a throwaway from a kept value."""

    name: str
    location: Location  # the binding, or the nested `def`
    loop_depth: int  # how many loops of the function it is bound in
    calls: tuple[int, ...]  # each place that calls it, as its loop depth (a comprehension is a loop)
    escapes: bool  # used otherwise: returned, stored, read by a closure, bound again
    passed: bool = False  # passed as an argument to a call (which may or may not keep it)


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Closure:
    """A lambda that reads attributes of a parameter of the function it is made in."""

    location: Location
    reads: tuple[Ref, ...]  # the parameters with the attributes read: `self.scale` of `Model.__init__`
    shape_reads: tuple[Ref, ...] = ()  # those of `reads` only tested for their keys or length: `"k" in self.opt`


@pickled_by_fields
@dataclass(frozen=True, slots=True)
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
    free_reads: tuple[Ref, ...] = ()  # for a nested function: what it reads of enclosing parameters
    shape_reads: tuple[Ref, ...] = ()  # those of `free_reads` only tested for their keys or length: `len(self.opt)`
    # The module-level names (of any module) and enclosing functions' locals its
    # body reads, with the attributes read off them: what a trace bakes in.
    outer_reads: tuple[Ref, ...] = ()
    loop_depth: int = 0  # how many loops of the enclosing function (or the module) its `def` is in

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
        return any(
            decorator.dotted in _PROPERTIES or (decorator.ref is not None and decorator.ref.last == "setter")
            for decorator in self.decorators
        )

    @property
    def is_instance_method(self) -> bool:
        """Defined in a class body, and not a staticmethod or classmethod: `self` comes first."""
        if not self.class_qualname or not self.parameters:
            return False
        return not any(decorator.dotted in _NOT_INSTANCE_METHODS for decorator in self.decorators)

    @property
    def is_classmethod(self) -> bool:
        """Defined in a class body under `@classmethod`: the class comes first, passed implicitly."""
        return bool(self.class_qualname and self.parameters) and any(
            decorator.dotted == "builtins.classmethod" for decorator in self.decorators
        )

    @property
    def self_name(self) -> str:
        """The name of `self` for an instance method; "" otherwise."""
        return self.parameters[0].name if self.is_instance_method else ""


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Binding:
    """`name = value` in a scope (module, class body or function)."""

    ref: Ref  # the bound name
    value: Value
    location: Location
    function: str = ""  # qualname of the function it is in ("" at module or class level): `global` names too
    conditional: bool = False  # inside an `if`, loop, `try` or `match` of its scope: the name may keep an earlier value


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class AttributeWrite:
    """`target.attribute = ...`, `del target.attribute` or `setattr(target, "attribute", ...)`."""

    target: Ref  # the object written to
    attribute: str  # "*" for `setattr` with a name that is not a literal
    location: Location
    function: str = ""  # qualname of the enclosing function, "" at module or class level
    value: Value | None = None
    named_by: Ref | None = None  # `setattr(obj, name, ...)`: the name the attribute's name is read from


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ItemWrite:
    """`target[key] = ...`, `target[key] += ...` or `del target[key]`: a container or array changed in place."""

    target: Ref  # the container: `self.items`, `cfg.w`
    location: Location
    function: str = ""


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ClassAttribute:
    """A name assigned or annotated in a class body (a field, for dataclasses)."""

    name: str
    location: Location
    annotation: tuple[Ref, ...] = ()  # what the annotation names; () when not annotated
    value: Value | None = None


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ClassFacts:
    qualname: str
    name: str
    location: Location  # the `class` keyword
    bases: tuple[Ref | None, ...]  # None for a base that is not a dotted name
    keywords: tuple[tuple[str, Ref | None], ...]  # metaclass=... and friends
    decorators: tuple[Value, ...]
    methods: tuple[str, ...]  # qualnames of the functions defined in the body
    attributes: tuple[ClassAttribute, ...]


# What kind of value a `LoopValue` holds: a Python number for sure, True or False, or anything.
A_NUMBER, A_FLAG, ANYTHING = "number", "flag", "any"
# `LoopValue.over` for a number computed from this call's array data (`float(loss)`): new at every call.
PER_CALL = "<per call>"


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class LoopValue:
    """An argument of a call made in a `for` loop that reads the loop's target,
    or a name the loop's body binds from it: it may take a new value on every turn.
    With `over == PER_CALL`, an argument of a call in a function that holds
    `int()`/`float()` of arrays' values computed there: new at every call."""

    location: Location  # the argument
    loop: Location  # the `for`
    over: str  # what the loop runs over, as written (shortened)
    names: tuple[str, ...]  # the names read that change from turn to turn
    turns: int | None = None  # how many turns the loop makes, when the code says: `range(100)`, a display
    # The loop runs over values fixed for the run: a display, a short `range`, configuration (`cfg.names`).
    fixed: bool = False
    kind: str = ANYTHING  # A_NUMBER, A_FLAG or ANYTHING


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class Dispatch:
    """A call a function makes for one string value of a name only: `SMAX(**kw)`
    under `if env_id == "SMAX":` (`literal` set), or `REGISTRY[env_id](**kw)`,
    a lookup of a dict by the name (`registry` set): the `make(name)` of a
    registry, which builds the class the caller's string selects."""

    location: Location  # the call
    function: str  # the function making it
    name: str  # the local compared with the string, or used as the key
    literal: str = ""
    registry: Ref | None = None


@pickled_by_fields
@dataclass(frozen=True, slots=True)
class ModuleFacts:
    path: str
    module: str  # dotted module name
    classes: tuple[ClassFacts, ...]
    functions: tuple[FunctionFacts, ...]
    calls: tuple[tuple[str, Value], ...]  # (enclosing function qualname or "", call)
    bindings: tuple[Binding, ...]  # module and function scopes
    attribute_writes: tuple[AttributeWrite, ...]
    imports: tuple[tuple[str, str], ...] = ()  # module-level name -> the absolute dotted name it imports
    closures: tuple[Closure, ...] = ()
    discarded: tuple[Location, ...] = ()  # calls made as statements: their result is dropped
    # Calls run on every turn of a loop (or comprehension), of the shapes that
    # make a throwaway function: `t(f)(x)`, or a call made as a statement.
    looped: tuple[Location, ...] = ()
    loop_calls: tuple[tuple[str, Ref], ...] = ()  # (enclosing function or "", what is called) in a loop
    item_writes: tuple[ItemWrite, ...] = ()
    repeated: tuple[Location, ...] = ()  # every call made in a loop or a comprehension
    looped_writes: tuple[Location, ...] = ()  # every binding, attribute or item write made in a loop
    loop_values: tuple[LoopValue, ...] = ()
    dispatches: tuple[Dispatch, ...] = ()
