"""The transforms, wrapped while a watch is on.

`jax.jit` and its kin are replaced by a function that builds the real
transform around `Traced(fun)` (a callable that counts how often JAX traces
it, and hashes and compares as `fun` does, so JAX's caches key on it as on
`fun`) and returns a `Watched`: the real transformed function behind a call
that tells the observer what each call passed and whether it traced.
Everything else (`.lower`, `.trace`, `.eval_shape`, `clear_cache`,
`__wrapped__`, binding as a method) is the real object's.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.util
import inspect
import sys
import threading
import types

import jaxcheck.watch.places as places

_local = threading.local()


def depth() -> int:
    return getattr(_local, "depth", 0)


class Traced:
    """The function given to the real transform: counts the traces, hashes as `fun`."""

    _jaxcheck_opaque = True

    def __init__(self, fun) -> None:
        self.fun = fun
        self.count = 0
        self.around = None  # a context manager factory run around each trace (to see what it reads)
        try:
            functools.update_wrapper(self, fun)
        except (AttributeError, TypeError):
            self.__wrapped__ = fun

    def __call__(self, *args, **kwargs):
        self.count += 1
        if self.around is None:
            return self.fun(*args, **kwargs)
        with self.around():
            return self.fun(*args, **kwargs)

    def __hash__(self) -> int:
        try:
            return hash(self.fun)
        except TypeError:
            return id(self)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Traced):
            return NotImplemented
        if self.fun is other.fun:
            return True
        try:
            return bool(self.fun == other.fun)
        except Exception:  # noqa: BLE001 - a callable whose == cannot say
            return False

    def __repr__(self) -> str:
        return repr(self.fun)


@functools.lru_cache(maxsize=1024)
def _parameters(fun) -> tuple[str, ...] | None:
    try:
        signature = inspect.signature(fun)
    except (TypeError, ValueError):
        return None
    return tuple(
        name for name, parameter in signature.parameters.items()
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    )


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (int, str)):
        return (value,)
    return tuple(value)


class Spec:
    """Which arguments of a call are static for one transform."""

    def __init__(self, transform: str, fun, options: dict, offset: int = 0) -> None:
        self.filtered = transform in FILTERED
        self.offset = offset
        numbers = _as_tuple(options.get("static_argnums")) + _as_tuple(options.get("static_broadcasted_argnums"))
        names = set(_as_tuple(options.get("static_argnames")))
        try:
            parameters = _parameters(inspect.unwrap(fun)) if not isinstance(fun, types.MethodType) else _parameters(fun)
        except (TypeError, ValueError):
            parameters = None
        parameters = parameters or ()
        self.parameters = parameters
        self.numbers = tuple(numbers)
        for number in numbers:
            if 0 <= number < len(parameters):
                names.add(parameters[number])
        self.names = frozenset(names)
        self.by_name = {name: index for index, name in enumerate(parameters) if name in names}
        self.any = bool(numbers or names or self.filtered)

    def label(self, index: int) -> str:
        index += self.offset
        return self.parameters[index] if index < len(self.parameters) else f"argument {index}"

    def statics(self, args: tuple, kwargs: dict) -> list[tuple[str | None, object]]:
        """(label, value) of each static value the call passes; under `eqx.filter_jit` and `nnx.jit` the
        labels are None (finding them is slow): `labelled` gives them when they are needed."""
        if self.filtered:
            return _filtered_values(args, kwargs)
        found = []
        taken = set()
        count = len(args)
        for number in self.numbers:
            index = (number % (count + self.offset)) - self.offset if number < 0 else number - self.offset
            if 0 <= index < count and index not in taken:
                taken.add(index)
                found.append((self.label(index), args[index]))
        for name, index in self.by_name.items():
            index -= self.offset
            if 0 <= index < count and index not in taken:
                taken.add(index)
                found.append((name, args[index]))
        for name in self.names:
            if name in kwargs:
                found.append((name, kwargs[name]))
        return found

    def labelled(self, args: tuple, kwargs: dict) -> list[tuple[str, object]]:
        """(label, value) of each static value the call passes."""
        return _filtered_statics(self, args, kwargs) if self.filtered else self.statics(args, kwargs)

    def dynamic(self, args: tuple, kwargs: dict) -> tuple:
        """The arguments JAX flattens as pytrees."""
        if self.filtered:
            return (args, kwargs)
        statics = {id(value) for _, value in self.statics(args, kwargs)}
        return (tuple(a for a in args if id(a) not in statics), {k: v for k, v in kwargs.items() if k not in self.names})


def _filtered_values(args: tuple, kwargs: dict) -> list[tuple[None, object]]:
    """Under `eqx.filter_jit`: every leaf that is not an array, unlabelled."""
    import jax
    import numpy as np

    return [
        (None, leaf) for leaf in jax.tree_util.tree_leaves((args, kwargs))
        if not isinstance(leaf, (jax.Array, np.ndarray))
    ]


def _filtered_statics(spec: Spec, args: tuple, kwargs: dict) -> list[tuple[str, object]]:
    """Under `eqx.filter_jit`: every leaf that is not an array, labelled by where it is."""
    import jax
    import numpy as np

    found = []
    for index, value in enumerate(args):
        prefix = spec.label(index)
        for path, leaf in jax.tree_util.tree_flatten_with_path(value)[0]:
            if not isinstance(leaf, (jax.Array, np.ndarray)) and leaf is not None:
                found.append((prefix + jax.tree_util.keystr(path), leaf))
    for name, value in kwargs.items():
        for path, leaf in jax.tree_util.tree_flatten_with_path(value)[0]:
            if not isinstance(leaf, (jax.Array, np.ndarray)) and leaf is not None:
                found.append((name + jax.tree_util.keystr(path), leaf))
    return found


class Watched:
    """A transformed function whose calls the observer sees."""

    _jaxcheck_opaque = True

    def __init__(self, transform: str, real, traced: Traced, fun, spec: Spec, site, observer) -> None:
        self._real = real
        self._traced = traced
        self._transform = transform
        self._spec = spec
        self._site = site
        self._observer = observer
        self._state = observer.new_function(self, transform, fun, traced, spec, site)
        try:
            functools.update_wrapper(self, fun)
        except (AttributeError, TypeError):
            pass
        self.__wrapped__ = fun

    def __call__(self, *args, **kwargs):
        return self._observed(self._real, args, kwargs)

    def _observed(self, call, args, kwargs):
        observer = self._observer
        if getattr(_local, "depth", 0) or not observer.active:
            return call(*args, **kwargs)
        _local.depth = 1
        try:
            return observer.call(self._state, call, args, kwargs, sys._getframe(2))
        finally:
            _local.depth = 0

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return types.MethodType(self, instance)

    def __getattr__(self, name):
        real = self.__dict__.get("_real")
        if real is None:
            raise AttributeError(name)
        value = getattr(real, name)
        if name in ("lower", "trace", "eval_shape") and callable(value):
            return functools.partial(self._observed_method, value)
        return value

    def _observed_method(self, method, *args, **kwargs):
        return self._observed(method, args, kwargs)

    def __repr__(self) -> str:
        return f"<watched {self._real!r}>"


# The transforms and where they live. Under these, every argument that is not an array is static (an
# nnx.Module's plain attributes are in its pytree's aux_data, static too).
FILTERED = {"equinox.filter_jit", "equinox.filter_pmap", "flax.nnx.jit", "flax.nnx.compat.jit", "flax.nnx.jit_partial", "flax.nnx.pmap"}
JAX_TRANSFORMS = [
    ("jax", "jit"),
    ("jax", "pmap"),
    ("jax", "checkpoint"),
    ("jax", "remat"),
    ("jax", "make_jaxpr"),
    ("jax.experimental.pjit", "pjit"),
]
LIBRARY_TRANSFORMS = {
    "equinox": [("equinox", "filter_jit"), ("equinox", "filter_pmap")],
    "flax.nnx": [("flax.nnx", "jit"), ("flax.nnx", "jit_partial"), ("flax.nnx", "pmap")],
    "flax.nnx.compat": [("flax.nnx.compat", "jit")],
}


class Patches:
    """The attributes replaced while a watch is on, and their originals."""

    def __init__(self, observer) -> None:
        self.observer = observer
        self.replaced: list[tuple[object, str, object, bool]] = []
        self.finder: _Finder | None = None

    def install(self) -> None:
        import warnings

        import jax.tree_util

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import jax.experimental.pjit  # noqa: F401 - so that `from jax.experimental.pjit import pjit` finds the patched one

        for module_name, attribute in JAX_TRANSFORMS:
            self._patch(module_name, attribute)
        for name in ("register_pytree_node", "register_pytree_with_keys"):
            self._patch_registration(jax.tree_util, name)
        pending = []
        for module_name in LIBRARY_TRANSFORMS:
            if module_name in sys.modules:
                self.patch_library(module_name)
            else:
                pending.append(module_name)
        if pending:
            self.finder = _Finder(self, pending)
            sys.meta_path.insert(0, self.finder)

    def patch_library(self, module_name: str) -> None:
        for module, attribute in LIBRARY_TRANSFORMS[module_name]:
            self._patch(module, attribute)

    def uninstall(self) -> None:
        if self.finder is not None and self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)
        for owner, attribute, original, own in reversed(self.replaced):
            if own:
                setattr(owner, attribute, original)
            else:  # it was the module's `__getattr__`'s (a deprecated name): let it answer again
                delattr(owner, attribute)
        self.replaced.clear()

    def _patch(self, module_name: str, attribute: str) -> None:
        import warnings

        module = sys.modules.get(module_name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            original = getattr(module, attribute, None) if module is not None else None
        if original is None or getattr(original, "_jaxcheck_original", None) is not None:
            return
        transform = f"{module_name}.{attribute}"
        observer = self.observer
        offset_by_arguments = attribute == "jit_partial"

        @functools.wraps(original)
        def patched(fun=None, *rest, **options):
            if getattr(_local, "depth", 0) or not observer.active:
                return original(*(() if fun is None else (fun,)), *rest, **options)
            site = places.caller(2)
            if fun is None or not callable(fun):
                return functools.partial(_decorate, fun, rest, options, site)
            return _build(fun, rest, options, site)

        def _decorate(first, rest, options, site, fun):
            return _build(fun, rest if first is None else (first, *rest), options, site)

        def _build(fun, rest, options, site):
            traced = Traced(fun)
            _local.depth = getattr(_local, "depth", 0) + 1
            try:
                real = original(traced, *rest, **options)
            finally:
                _local.depth -= 1
            if not callable(real):
                return real
            spec = Spec(transform, fun, options, offset=len(rest) if offset_by_arguments else 0)
            return Watched(transform, real, traced, fun, spec, site, observer)

        patched._jaxcheck_original = original
        own = attribute in vars(module)
        setattr(module, attribute, patched)
        self.replaced.append((module, attribute, original, own))

    def _patch_registration(self, module, attribute: str) -> None:
        original = getattr(module, attribute, None)
        if original is None:
            return
        observer = self.observer

        @functools.wraps(original)
        def patched(nodetype, *rest, **options):
            flatten = rest[0] if rest else options.get("flatten_func") or options.get("flatten_with_keys")
            if flatten is not None:
                observer.flatten_functions[nodetype] = flatten
            return original(nodetype, *rest, **options)

        setattr(module, attribute, patched)
        self.replaced.append((module, attribute, original, True))


class _Finder(importlib.abc.MetaPathFinder):
    """Patches equinox and flax.nnx when the program imports them, not before (importing flax takes seconds)."""

    def __init__(self, patches: Patches, names: list[str]) -> None:
        self.patches = patches
        self.names = set(names)

    def find_spec(self, fullname, path, target=None):
        if fullname not in self.names:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        exec_module = loader.exec_module
        patches = self.patches

        class _Loader(importlib.abc.Loader):
            """The library's own loader (its sources, its resources), which patches the module once run."""

            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                exec_module(module)
                patches.patch_library(fullname)

            def __getattr__(self, name):
                return getattr(loader, name)

        spec.loader = _Loader()
        return spec
