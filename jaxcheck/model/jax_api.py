"""The names jaxcheck knows of JAX, numpy, equinox, flax and Python itself, by what they do.

Every table of library names the model reads is here, so that what jaxcheck
assumes of a library is in one place (what JAX does with those values, by
release, is in `jax_versions`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Transform:
    """A JAX transform that caches what it compiles, and how it marks values static."""

    name: str  # how messages name it: "jax.jit"
    argnums: str  # the keyword that lists static positions
    argnames: str = ""  # the keyword that lists static names, when it has one
    all_static: bool = False  # every argument that is not an array (or pytree of them) is static
    # Its cache hashes a key once, when stored, on every release: a
    # value-hashed object changed later hashes elsewhere and misses (a
    # recompile, not a stale result). The others cache as `jax.jit` does,
    # which hashes once except on 0.9 to 0.10 (`changed-value-key`).
    hashes_once: bool = False
    # It compiles what it returns: made anew per call, it compiles per call
    # (JAX401). Every transform here keeps a trace cache on the function it
    # returns (what that closes over is baked in: JAX2xx), but `checkpoint`
    # compiles nothing of its own, and `make_jaxpr` is made to be called once.
    compiles: bool = True
    # An unhashable static argument makes it raise (`jax.jit`); `checkpoint`
    # retraces for every fresh one and goes stale after an in-place change.
    raises_on_unhashable: bool = True
    traces_self: bool = False  # `self` of a method it decorates is traced: a plain class raises (JAX202)
    # It splits a graph node (an `nnx.Module`) given as any argument and keys its
    # cache on the node's plain attributes, which are static (flax's graph def).
    keys_node_attributes: bool = False
    # Its positional arguments after the function are bound to the function's
    # first parameters (`nnx.jit_partial(step, model)`), and its static
    # positions count them: each call passes the parameters that follow.
    binds_leading: bool = False


_JIT = Transform("jax.jit", "static_argnums", "static_argnames", traces_self=True)
_NNX_JIT = Transform("nnx.jit", "static_argnums", "static_argnames", traces_self=True, keys_node_attributes=True)
_CHECKPOINT = Transform(
    "jax.checkpoint", "static_argnums", "static_argnames", hashes_once=True, compiles=False, raises_on_unhashable=False
)

# Each keeps a cache keyed on its static arguments (SPEC 2; pmap and checkpoint
# go stale only for objects hashed by identity, checked on 0.4.30 to 0.12.0.1).
# `custom_jvp`/`custom_vjp` `nondiff_argnums` are not here: nothing is cached on them.
TRANSFORMS: dict[str, Transform] = {
    "jax.jit": _JIT,
    "jax.api.jit": _JIT,
    "jax._src.api.jit": _JIT,  # how JAX's own modules spell it
    "jax.experimental.pjit.pjit": Transform("pjit", "static_argnums", "static_argnames", traces_self=True),
    "jax.pmap": Transform("jax.pmap", "static_broadcasted_argnums", hashes_once=True),
    "jax.checkpoint": _CHECKPOINT,
    "jax.remat": _CHECKPOINT,
    "jax.ad_checkpoint.checkpoint": _CHECKPOINT,
    "jax.make_jaxpr": Transform("jax.make_jaxpr", "static_argnums", compiles=False),
    "flax.nnx.jit": _NNX_JIT,
    "flax.nnx.compat.jit": _NNX_JIT,  # `partial(nnx.jit, graph=True, graph_updates=True)`
    "flax.nnx.jit_partial": Transform(
        "nnx.jit_partial", "static_argnums", "static_argnames", keys_node_attributes=True, binds_leading=True
    ),
    "flax.nnx.pmap": Transform("nnx.pmap", "static_broadcasted_argnums", hashes_once=True),
    "flax.nnx.remat": Transform(
        "nnx.remat", "static_argnums", hashes_once=True, compiles=False, raises_on_unhashable=False
    ),
    # Equinox caches on every non-array leaf; filter_vmap/grad/checkpoint cache nothing.
    "equinox.filter_jit": Transform("eqx.filter_jit", "", all_static=True),
    "equinox.filter_pmap": Transform("eqx.filter_pmap", "", all_static=True, hashes_once=True),
}

PARTIAL = "functools.partial"

# Transforms of jax, flax and equinox that trace the functions they are given:
# code handed to them runs once per compilation, not once per call.
TRACING_LIBRARIES = ("jax.", "flax.", "equinox.")
TRACING_NAMES = frozenset(
    {
        "jit", "pjit", "pmap", "vmap", "grad", "value_and_grad", "jacfwd", "jacrev", "jacobian", "hessian",
        "jvp", "vjp", "linearize", "checkpoint", "remat", "scan", "fori_loop", "while_loop", "cond", "switch",
        "map", "associative_scan", "custom_jvp", "custom_vjp", "defjvp", "defvjp", "eval_shape", "make_jaxpr",
        "shard_map", "smap", "named_call", "filter_jit", "filter_vmap", "filter_pmap", "filter_grad",
        "filter_value_and_grad", "filter_checkpoint", "filter_eval_shape", "filter_jvp", "filter_vjp",
        "filter_custom_jvp", "filter_custom_vjp", "split_rngs", "fork_rngs",
    }
)
# They call the function they are given once per leaf, on every call.
TREE_MAPS = frozenset(
    {"jax.tree_util.tree_map", "jax.tree_util.tree_map_with_path", "jax.tree.map", "jax.tree.map_with_path", "jax.tree_map"}
)

# --- arrays and containers ---------------------------------------------------------------------

_ARRAY_MODULES = ("numpy.", "jax.numpy.")
_ARRAY_CONSTRUCTORS = frozenset(
    {
        "array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity",
        "zeros_like", "ones_like", "full_like", "empty_like",
    }
)
# `jax.numpy` functions whose result is not an array (NumPy's scalar types, `np.int32(3)`, are hashable).
_JAX_NUMPY_NOT_ARRAYS = frozenset(
    {
        "dtype", "finfo", "iinfo", "issubdtype", "isdtype", "result_type", "promote_types", "can_cast", "shape",
        "ndim", "size", "isscalar", "iscomplexobj", "isrealobj", "iterable", "vectorize", "frompyfunc",
        "printoptions", "set_printoptions", "get_printoptions", "broadcast_shapes", "einsum_path", "save", "savez",
        "ufunc", "errstate",
    }
)
_JAX_RANDOM = "jax.random."  # always arrays; numpy.random returns Python scalars without a size
ARRAY_TYPES = frozenset(
    {
        "jax.Array",
        "jax.numpy.ndarray",
        "numpy.ndarray",
        "numpy.typing.NDArray",
        "chex.Array",
        *(
            f"jaxtyping.{name}"
            for name in (
                "Array", "Shaped", "Bool", "Num", "Real", "Inexact", "Float", "Complex",
                "Integer", "Int", "UInt", "Key", "PRNGKeyArray", "Float32", "Float64", "Int32", "Int64",
            )
        ),
    }
)
UNHASHABLE_BUILTINS = frozenset({"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray"})
# Objects of libraries that define `__eq__` and no `__hash__`: `hash()` raises TypeError
# (checked on Python 3.11.7 and 3.13). What they are called in messages.
LIBRARY_UNHASHABLE = {
    "argparse.Namespace": "namespace",
    "types.SimpleNamespace": "namespace",
    # ml_collections 1.1 (its FrozenConfigDict hashes by value) and omegaconf 2.3, checked on jax 0.10.2
    # and 0.12.0.1 (fixtures/JAX106): `jax.jit` raises on either at a static position.
    "ml_collections.ConfigDict": "ConfigDict",
    "ml_collections.config_dict.ConfigDict": "ConfigDict",
    "ml_collections.config_dict.config_dict.ConfigDict": "ConfigDict",
    "ml_collections.config_dict.create": "ConfigDict",
    "omegaconf.DictConfig": "DictConfig",
    "omegaconf.OmegaConf.create": "DictConfig",
    "omegaconf.OmegaConf.load": "DictConfig",
    "omegaconf.OmegaConf.merge": "DictConfig",
    "omegaconf.OmegaConf.structured": "DictConfig",
    "omegaconf.OmegaConf.from_cli": "DictConfig",
    "omegaconf.OmegaConf.from_dotlist": "DictConfig",
    # A configuration read from a file is a dict (or a list): never a key (PyYAML 6 checked on jax 0.10.2).
    "json.load": "dict",
    "json.loads": "dict",
    "yaml.safe_load": "dict",
    "yaml.load": "dict",
    "yaml.full_load": "dict",
    "tomllib.load": "dict",
    "tomllib.loads": "dict",
    "toml.load": "dict",
    "toml.loads": "dict",
    # fiddle 0.3.1: a buildable defines `__eq__` and no `__hash__`.
    "fiddle.Config": "fiddle Config",
    "fiddle.Partial": "fiddle Config",
    # scipy 1.17: a sparse matrix or array compares elementwise and has no `__hash__` (checked on jax 0.10.2
    # and 0.12.0.1, fixtures/JAX106).
    **{
        f"scipy.sparse.{name}": "scipy sparse matrix"
        for kind in ("bsr", "coo", "csc", "csr", "dia", "dok", "lil")
        for name in (f"{kind}_matrix", f"{kind}_array")
    },
    **{
        f"scipy.sparse.{name}": "scipy sparse matrix"
        for name in (
            "eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "random", "random_array", "rand",
            "kron", "kronsum", "block_diag", "block_array", "bmat", "hstack", "vstack",
        )
    },
}
# Methods whose result is one of those, given what the object they are called on was built by.
LIBRARY_UNHASHABLE_RESULTS = {("argparse.ArgumentParser", "parse_args"): "namespace"}
# Library calls that build a new object on every call which compares unequal to the last one: at a static
# position, each misses the cache. optax's transformations are NamedTuples of closures made per call
# (checked with optax 0.2 on jax 0.10.2 and 0.12.0.1: a step given `opt=optax.sgd(lr)` per turn traces per turn).
FRESH_OBJECTS = {
    f"optax.{name}": "`GradientTransformation`"
    for name in (
        "adabelief", "adadelta", "adafactor", "adagrad", "adam", "adamax", "adamaxw", "adamw", "amsgrad", "fromage",
        "lamb", "lars", "lion", "nadam", "nadamw", "noisy_sgd", "novograd", "optimistic_gradient_descent", "radam",
        "rmsprop", "rprop", "sgd", "sign_sgd", "sm3", "yogi", "chain", "clip", "clip_by_block_rms",
        "clip_by_global_norm", "add_decayed_weights", "scale", "scale_by_adam", "scale_by_learning_rate",
        "scale_by_schedule", "scale_by_rms", "masked", "multi_transform", "apply_if_finite", "zero_nans",
    )
}
# Calls that split an object into parts of its own class: `dynamic, static = eqx.partition(model, ...)`.
# Decorators that keep what a function returns, per argument.
CACHING = frozenset({"functools.lru_cache", "functools.cache"})
PARTITIONS = frozenset({"equinox.partition"})
ARRAY_FILTERS = frozenset({"equinox.is_array"})  # the filter that leaves every array, and only arrays, in one half
CONTAINER_TYPES = {
    "builtins.list": "list",
    "builtins.dict": "dict",
    "builtins.set": "set",
    "builtins.bytearray": "bytearray",
    "typing.List": "list",
    "typing.Dict": "dict",
    "typing.Set": "set",
    "typing.MutableMapping": "dict",
    "typing.MutableSequence": "list",
    "collections.abc.MutableMapping": "dict",
    "collections.abc.MutableSequence": "list",
}
# Methods that change a list, dict, set or array in place.
MUTATORS = frozenset(
    {
        "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",  # list
        "update", "setdefault", "popitem",  # dict
        "add", "discard", "difference_update", "intersection_update", "symmetric_difference_update",  # set
        "fill", "resize", "put", "itemset", "setflags",  # numpy arrays
    }
)


def is_array_constructor(ref: str) -> bool:
    """`np.array(...)`, `jnp.zeros(...)`, `jax.random.normal(...)` and their kin:
    every `jax.numpy` function returns a jax array (`jnp.int32(3)` too) but the
    few that answer questions about dtypes and shapes."""
    if ref.startswith(_JAX_RANDOM):
        return True
    module, _, name = ref.rpartition(".")
    if module == "jax.numpy" or module.startswith(("jax.numpy.linalg", "jax.numpy.fft")):
        return name not in _JAX_NUMPY_NOT_ARRAYS and not name.startswith("_")
    return name in _ARRAY_CONSTRUCTORS and (module + ".").startswith(_ARRAY_MODULES)


# --- how classes are written ---------------------------------------------------------------------

NEUTRAL_BASES = frozenset(
    {
        "builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol",
        # Plain classes of libraries JAX projects subclass: no `__hash__`, `__eq__`, `__setattr__`
        # or metaclass of their own (gymnax 1.0.1's source; torch's `Dataset` defines only
        # `__getitem__` and `__add__`).
        "gymnax.environments.environment.Environment", "gymnax.environments.Environment",
        "torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset",
        "torch.utils.data.IterableDataset", "torch.utils.data.dataset.IterableDataset",
    }
)
SINGLETON_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag", "enum.ReprEnum"})
VALUE_BASES = frozenset({"typing.NamedTuple", "builtins.tuple", "builtins.str", "builtins.int", "builtins.frozenset"})
UNHASHABLE_BASES = frozenset({"builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray"})
# pydantic models compare by value and hash only when frozen (`model_config = ConfigDict(frozen=True)`, or
# `class Config: frozen = True` in pydantic 1); checked with pydantic 2 on jax 0.10.2 and 0.12.0.1.
PYDANTIC_BASES = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel", "pydantic.v1.BaseModel"})
PYDANTIC_CONFIGS = frozenset({"pydantic.ConfigDict", "pydantic.config.ConfigDict", "builtins.dict"})
ABSTRACT_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "abc.ABC"})
ABSTRACT_DECORATORS = frozenset({"abc.abstractmethod", "abc.abstractproperty"})
# Class decorators that write a dataclass, each with its default for `frozen`.
DATACLASS_MAKERS = {
    "dataclasses.dataclass": False,
    "flax.struct.dataclass": True,
    "attr.s": False,
    "attr.attrs": False,
    "attr.define": False,
    "attrs.define": False,
    "attr.mutable": False,
    "attrs.mutable": False,
    "attr.frozen": True,
    "attrs.frozen": True,
    "jax_dataclasses.pytree_dataclass": True,  # frozen always: "Pytree dataclasses can only be frozen!"
    "chex.dataclass": False,  # mutable unless `frozen=True`: checked with chex 0.1.92, unhashable then
}
EQUINOX_MODULES = frozenset({"equinox.Module", "equinox._module.Module"})
# Methods library base classes give their subclasses, by base: `model.apply` of a linen module the
# project defines is a bound method, a new object at each access (checked on flax 0.12: a jit of
# `model.apply` made per call traces per call).
LIBRARY_BASE_METHODS = dict.fromkeys(
    ("flax.linen.Module", "flax.linen.module.Module"), frozenset({"apply", "init", "init_with_output", "bind", "lazy_init"})
)
# Bases whose subclasses are frozen dataclasses, hashed and compared by their fields.
# A linen module is a dataclass hashed by its fields whose attributes cannot be set outside `setup`
# (flax 0.12): a list given to a field makes it unhashable at a static position.
LINEN_MODULES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
FROZEN_DATACLASS_BASES = EQUINOX_MODULES | LINEN_MODULES | {"flax.struct.PyTreeNode"}
NEUTRAL_DECORATORS = frozenset(
    {
        "typing.final",
        "typing_extensions.final",
        "functools.total_ordering",
        "typing.runtime_checkable",
        "jax.tree_util.register_pytree_node_class",
        "jax.tree_util.register_static",
    }
)
NEUTRAL_METACLASSES = frozenset({"abc.ABCMeta"})
PYTREE_DECORATORS = frozenset(
    {"jax.tree_util.register_pytree_node_class", "jax.tree_util.register_dataclass", "flax.struct.dataclass", "chex.dataclass"}
)
PYTREE_BASES = FROZEN_DATACLASS_BASES | {"typing.NamedTuple", "builtins.tuple"}
# Methods that build an object: what they assign is its construction, not a change.
CONSTRUCTION = frozenset({"__init__", "__new__", "__post_init__", "__setstate__", "__attrs_post_init__"})
# flax linen's `setup` runs once, lazily, before the module is first applied.
SETUP = frozenset({"setup"})
ATTRIBUTE_HOOKS = frozenset({"__setattr__", "__delattr__"})  # how writes happen, not writes
IDENTITY_HASHES = frozenset({"builtins.id", "builtins.object.__hash__"})
CLASS_VARIABLE = "typing.ClassVar"  # how the facts mark a ClassVar annotation
# Passing a value to these reads nothing of its state.
NOT_READING = frozenset({"builtins.type", "builtins.isinstance", "builtins.issubclass", "builtins.id", "builtins.callable"})

# --- pytrees --------------------------------------------------------------------------------------

TREE_UTIL = ("jax.tree_util.", "jax._src.tree_util.")
# Class decorators, with the methods they take the flatten from.
CLASS_REGISTRATIONS = {
    "register_pytree_node_class": ("tree_flatten",),
    "register_pytree_with_keys_class": ("tree_flatten_with_keys", "tree_flatten"),
}
# Registration calls, with where their flatten functions are: positions, keywords.
CALL_REGISTRATIONS = {
    "register_pytree_node": ((1,), ("flatten_func",)),
    "register_pytree_with_keys": ((1, 3), ("flatten_with_keys", "flatten_func")),
}
REGISTER_DATACLASS = frozenset({"jax.tree_util.register_dataclass", "jax._src.tree_util.register_dataclass"})
# penzai's frozen pytree dataclasses: a field with `metadata={"pytree_node": False}` is static.
PENZAI_DATACLASS = frozenset({"penzai.core.struct.pytree_dataclass", "penzai.pz.pytree_dataclass"})
NNX_STATIC = "flax.nnx.static"
GRAPH_NODES = frozenset({"flax.nnx.Module", "flax.nnx.module.Module", "flax.nnx.Object", "flax.nnx.Pytree"})
TREE_STATIC = frozenset({"jax.tree.static", "jax._src.tree.static"})
JAX_DATACLASSES_STATIC = "jax_dataclasses.Static"
# Field specifiers: what they hold is their `default`, or what `default_factory` makes.
FIELD_SPECIFIERS = frozenset(
    {
        "dataclasses.field",
        "equinox.field",
        "equinox._module.field",
        "equinox.static_field",
        "equinox._module.static_field",
        "flax.struct.field",
        "jax_dataclasses.static_field",
        NNX_STATIC,
    }
)


def tree_util_name(ref: str, names) -> str | None:
    """`register_pytree_node` for `jax.tree_util.register_pytree_node`, when it is one of `names`."""
    for prefix in TREE_UTIL:
        if ref.startswith(prefix) and ref[len(prefix) :] in names:
            return ref[len(prefix) :]
    return None


# The top-level packages these tables name: a project folder that offers one of
# these names (a vendored copy) never stands for the library.
LIBRARIES = frozenset(
    name.partition(".")[0]
    for table in list(globals().values())
    if isinstance(table, (dict, frozenset, tuple))
    for name in table
    if isinstance(name, str) and "." in name
)
