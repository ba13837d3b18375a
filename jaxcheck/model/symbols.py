"""Lookup tables over the facts of the analysed modules.

The index turns a ref into the class, function, bindings or attribute writes
it names, and tells which classes an expression's value can be an instance of.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from jaxcheck import facts as f

_ARRAY_MODULES = ("numpy.", "jax.numpy.")
_ARRAY_CONSTRUCTORS = frozenset(
    {
        "array",
        "asarray",
        "zeros",
        "ones",
        "empty",
        "full",
        "arange",
        "linspace",
        "eye",
        "identity",
        "zeros_like",
        "ones_like",
        "full_like",
        "empty_like",
    }
)
# jax.random always returns arrays; numpy.random returns Python scalars without a size.
_JAX_RANDOM = "jax.random."


_DISPLAYS = {f.LIST: "list", f.DICT: "dict", f.SET: "set"}
_MAX_REEXPORTS = 16
_PYTREE_DECORATORS = frozenset(
    {"jax.tree_util.register_pytree_node_class", "jax.tree_util.register_dataclass", "flax.struct.dataclass", "chex.dataclass"}
)
_PYTREE_BASES = frozenset(
    {"equinox.Module", "equinox._module.Module", "flax.struct.PyTreeNode", "typing.NamedTuple", "builtins.tuple"}
)
_ABSTRACT_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "abc.ABC"})
_ABSTRACT_DECORATORS = frozenset({"abc.abstractmethod", "abc.abstractproperty"})
_UNHASHABLE_BUILTINS = frozenset({"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray"})


def is_array_constructor(ref: str) -> bool:
    """`np.array(...)`, `jnp.zeros(...)`, `jax.random.normal(...)` and their kin."""
    if ref.startswith(_JAX_RANDOM):
        return True
    module, _, name = ref.rpartition(".")
    return name in _ARRAY_CONSTRUCTORS and (module + ".").startswith(_ARRAY_MODULES)


class Index:
    """Classes, functions, bindings and attribute writes of the analysed modules, by ref."""

    def __init__(self, modules: Iterable[f.ModuleFacts]) -> None:
        self.modules = {module.path: module for module in modules}
        self.classes: dict[str, f.ClassFacts] = {}
        self.functions: dict[str, f.FunctionFacts] = {}
        self.path_of: dict[str, str] = {}  # class or function qualname -> path
        self.bindings: dict[str, list[f.Binding]] = defaultdict(list)
        self.writes: dict[str, list[tuple[f.AttributeWrite, str]]] = defaultdict(list)
        self._bound_by_value: dict[tuple, list[str]] = {}
        self.subclasses: dict[str, list[str]] = defaultdict(list)  # base qualname -> project subclasses
        self.missing: set[str] = set()  # refs asked for that no analysed module defines
        self._exports = {module.module: dict(module.imports) for module in self.modules.values()}
        self._canonical: dict[str, str] = {}
        for module in self.modules.values():
            for cls in module.classes:
                self.classes[cls.qualname] = cls
                self.path_of[cls.qualname] = module.path
            for function in module.functions:
                self.functions[function.qualname] = function
                self.path_of[function.qualname] = module.path
            for binding in module.bindings:
                self.bindings[binding.ref].append(binding)
                if binding.value.kind == f.CALL:
                    self._bound_by_value.setdefault((module.path, binding.value.key), []).append(binding.ref)
            for write in module.attribute_writes:
                self.writes[write.target].append((write, module.path))
        for cls in self.classes.values():
            for base in cls.bases:
                self.subclasses[self.canonical(base)].append(cls.qualname)

    def canonical(self, ref: str) -> str:
        """`ref` with re-exports followed: `pkg.Config` -> `pkg.settings.Config`."""
        known = self._canonical.get(ref)
        if known is not None:
            return known
        result, seen = ref, set()
        # Each step replaces a module's name by what it imports; a chain longer
        # than any real re-export (or one that grows: `from . import x as y`
        # loops) is cut short.
        while len(seen) < _MAX_REEXPORTS and ":" not in result and result not in seen:
            if result in self.classes or result in self.functions or result in self.bindings:
                break
            seen.add(result)
            parts = result.split(".")
            for end in range(len(parts) - 1, 0, -1):
                exports = self._exports.get(".".join(parts[:end]))
                if exports is not None:
                    target = exports.get(parts[end])
                    if target is not None:
                        result = ".".join([target, *parts[end + 1 :]])
                    break
        self._canonical[ref] = result
        return result

    def lookup_class(self, ref: str) -> str | None:
        """The project class `ref` names; a miss is remembered, for loading more modules."""
        canonical = self.canonical(ref)
        if canonical in self.classes:
            return canonical
        self.missing.add(canonical)
        return None

    def annotated_classes(self, parameter: f.Parameter) -> list[str]:
        """The class an annotation says a parameter holds, when it says so plainly:
        one concrete project class (or Optional of one) without project subclasses.
        A union, a Protocol, an abstract or a base class says little of what is passed."""
        if len(parameter.annotation) != 1:
            return []
        qualname = self.lookup_class(parameter.annotation[0])
        if qualname is None or self.subclasses.get(qualname) or self.is_abstract(qualname):
            return []
        return [qualname]

    def is_pytree(self, qualname: str, seen: frozenset[str] = frozenset()) -> bool:
        """Registered as a pytree (so split into leaves by transforms), or a tuple type."""
        cls = self.classes[qualname]
        if any(decorator.ref in _PYTREE_DECORATORS for decorator in cls.decorators):
            return True
        for base in map(self.canonical, cls.bases):
            if base in _PYTREE_BASES:
                return True
            if base in self.classes and base not in seen and self.is_pytree(base, seen | {qualname}):
                return True
        return False

    def is_abstract(self, qualname: str) -> bool:
        """A Protocol, an ABC, or a class with abstract methods: never the class of a value."""
        cls = self.classes[qualname]
        if {self.canonical(base) for base in cls.bases} & _ABSTRACT_BASES:
            return True
        return any(
            decorator.ref in _ABSTRACT_DECORATORS
            for method in cls.methods
            for decorator in self.functions[method].decorators
        )

    def lookup_function(self, ref: str) -> f.FunctionFacts | None:
        canonical = self.canonical(ref)
        function = self.functions.get(canonical)
        if function is None:
            self.missing.add(canonical)
        return function

    def method(self, class_qualname: str, name: str) -> f.FunctionFacts | None:
        return self.functions.get(f"{class_qualname}.{name}")

    def find_method(self, class_qualname: str, name: str) -> f.FunctionFacts | None:
        """The method `name` of a class or of its project bases, first found depth-first."""
        pending, seen = [class_qualname], set()
        while pending:
            qualname = pending.pop(0)
            if qualname in seen or qualname not in self.classes:
                continue
            seen.add(qualname)
            method = self.method(qualname, name)
            if method is not None:
                return method
            pending.extend(self.canonical(base) for base in self.classes[qualname].bases)
        return None

    def bound_names(self, path: str, value: f.Value) -> list[str]:
        """The refs of the names a value in the module at `path` is assigned to."""
        return self._bound_by_value.get((path, value.key), [])

    def instance_classes(self, ref: str) -> tuple[str, ...]:
        """The project classes whose instances the name `ref` may hold."""
        found: list[str] = []
        function_qualname, sep, local = ref.partition(":")
        if sep and "." not in local:
            function = self.functions.get(function_qualname)
            if function is not None:
                for position, parameter in enumerate(function.parameters):
                    if parameter.name != local:
                        continue
                    found.extend(self.annotated_classes(parameter))
                    if position == 0 and function.is_instance_method:
                        found.append(function.class_qualname)
        else:
            ref = self.canonical(ref)
            if ref not in self.bindings:
                self.missing.add(ref)
        for binding in self.bindings.get(ref, ()):
            cls = self.constructed_class(binding.value)
            if cls is not None:
                found.append(cls)
        return tuple(dict.fromkeys(found))

    def unhashable_kind(self, value: f.Value, follow_names: bool = True) -> str:
        """"list", "dict", "set", "bytearray" or "array" when `value` is surely one; else ""."""
        if value.kind in _DISPLAYS:
            return _DISPLAYS[value.kind]
        if value.kind == f.CALL:
            if value.ref in _UNHASHABLE_BUILTINS:
                return value.ref.rpartition(".")[2]
            return "array" if is_array_constructor(value.ref) else ""
        if value.kind == f.NAME and follow_names:
            bindings = self.bindings.get(self.canonical(value.ref), ())
            kinds = {self.unhashable_kind(binding.value, False) for binding in bindings}
            if len(kinds) == 1:
                return kinds.pop()
        return ""

    def constructed_class(self, value: f.Value) -> str | None:
        """The project class a call constructs, when `value` is such a call."""
        if value.kind == f.CALL and value.ref:
            return self.lookup_class(value.ref)
        return None
