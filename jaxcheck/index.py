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
        self._bound_by_value: dict[int, list[str]] = {}
        self.subclasses: dict[str, list[str]] = defaultdict(list)  # base qualname -> project subclasses
        for module in self.modules.values():
            for cls in module.classes:
                self.classes[cls.qualname] = cls
                self.path_of[cls.qualname] = module.path
                for base in cls.bases:
                    self.subclasses[base].append(cls.qualname)
            for function in module.functions:
                self.functions[function.qualname] = function
                self.path_of[function.qualname] = module.path
            for binding in module.bindings:
                self.bindings[binding.ref].append(binding)
                self._bound_by_value.setdefault(id(binding.value), []).append(binding.ref)
            for write in module.attribute_writes:
                self.writes[write.target].append((write, module.path))

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
            pending.extend(self.classes[qualname].bases)
        return None

    def bound_names(self, value: f.Value) -> list[str]:
        """The refs of the names a value is assigned to."""
        return self._bound_by_value.get(id(value), [])

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
                    found.extend(name for name in parameter.annotation if name in self.classes)
                    if position == 0 and function.is_instance_method:
                        found.append(function.class_qualname)
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
            kinds = {self.unhashable_kind(binding.value, False) for binding in self.bindings.get(value.ref, ())}
            if len(kinds) == 1:
                return kinds.pop()
        return ""

    def constructed_class(self, value: f.Value) -> str | None:
        """The project class a call constructs, when `value` is such a call."""
        if value.kind == f.CALL and value.ref in self.classes:
            return value.ref
        return None
