"""What the watch keeps of a transformed function: the values that became its cache keys (or
that its traces baked in), each with a snapshot of its state then."""

from __future__ import annotations

import dataclasses

from jaxcheck.watch.places import Site
from jaxcheck.watch.snapshot import Snapshot

MUTABLE_HOLDERS = {"list", "dict", "set", "ndarray", "method", "class", "partial"}


@dataclasses.dataclass
class Key:
    """A value that became a cache key (or is baked into a trace), and its state then."""

    obj: object
    snapshot: Snapshot | None
    label: str  # `cfg`, `model.schedule`, `aux_data of Layer`
    origin: str  # "static", "leaf", "aux", "self", "closure", "global"
    made: Site | None  # the call that made it a key
    node: type | None = None  # for aux_data: the pytree class
    namespace: dict | None = None  # for a global: the module's namespace, to see a rebinding
    name: str = ""  # for a global or a closure variable
    reads: set | None = None  # for an object a function holds: the attributes its traces read
    fixed: bool = False  # immutable all the way down: its state cannot change
    read_map: dict | None = None  # for a static value: id of each object in it -> the attributes its trace read
    quick: tuple | None = None  # (names, values) when what the traces read of the object is plain values


@dataclasses.dataclass
class FunctionState:
    transform: str
    fun: object
    traced: object
    spec: object
    site: Site | None
    keys: dict = dataclasses.field(default_factory=dict)  # label -> [Key]
    roots: list = dataclasses.field(default_factory=list)  # Keys found below the arguments: aux_data
    baked: list = dataclasses.field(default_factory=list)  # Keys the function itself holds
    values_at: dict = dataclasses.field(default_factory=dict)  # (label, call site, case) -> set of tokens
    last_aux: list = dataclasses.field(default_factory=list)
    watched: object = None  # a weak reference to the transformed function the user holds
    fixed_ids: set = dataclasses.field(default_factory=set)  # ids of keys that cannot change (each held in `keys`)
    verified: dict = dataclasses.field(default_factory=dict)  # id -> an object found equal to a key, unchangeable
    shallow: set = dataclasses.field(default_factory=set)  # `shallow_state`s of the keys that have one
    current: tuple = ()  # the static values of the call running now (its trace reads them)
    reads_by_id: dict = dataclasses.field(default_factory=dict)  # id of a static object -> attributes a trace read

    @property
    def name(self) -> str:
        fun = self.fun
        return getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or type(fun).__name__

    @property
    def short_transform(self) -> str:
        return {"jax.experimental.pjit.pjit": "pjit", "flax.nnx.jit": "nnx.jit", "flax.nnx.compat.jit": "nnx.compat.jit",
                "flax.nnx.jit_partial": "nnx.jit_partial", "equinox.filter_jit": "eqx.filter_jit",
                "equinox.filter_pmap": "eqx.filter_pmap", "flax.nnx.pmap": "nnx.pmap"}.get(self.transform, self.transform)


MISSING = object()


def resolve(obj, path: tuple):
    """The object at `path` below `obj` (as a snapshot spells paths), or `MISSING`."""
    for step in path:
        try:
            if step.startswith("."):
                obj = getattr(obj, step[1:])
            elif isinstance(obj, dict):
                obj = next(value for name, value in obj.items() if f"[{name!r}]" == step)
            else:
                obj = obj[int(step[1:-1])]
        except (AttributeError, LookupError, ValueError, TypeError, StopIteration):
            return MISSING
    return obj


def worth_watching(snapshot: Snapshot) -> bool:
    for holder in snapshot.holders.values():
        if holder[0] in MUTABLE_HOLDERS or (holder[0] == "object" and not holder[2]):
            return True
    return False
