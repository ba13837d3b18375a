"""JAX3xx: what pytrees keep in their structure.

`aux_data` and static fields are part of the treedef, and the treedef is part
of every jit cache key: compared with `==` on each call, and kept by
reference in the cache. An array there is traced (jnp) or cannot be compared
(numpy); a list changed in place changes the cached key with it, so the stale
function is found again; a lambda, bound method or fresh identity-hashed
object is unequal to the last one, so every call retraces.
"""

from __future__ import annotations

from typing import ClassVar

from jaxcheck.findings import Related, place_named
from jaxcheck.model.evidence import construction_runs_again, real_change
from jaxcheck.model.project import Model
from jaxcheck.model.state import Change
from jaxcheck.model.values import ARRAY, MUTABLE, UNSTABLE, Held
from jaxcheck.model.pytrees import static_fields
from jaxcheck.rules.base import Rule, related_change

_WHY = {
    ARRAY: (
        "the tree's structure is compared with `==` on every call, and an array there cannot be: a new numpy "
        "array raises, a jax array leaks a tracer, and one changed in place gives a stale result"
    ),
    MUTABLE: "the cached structure changes with it, so the next call reuses the function compiled for the old contents",
    UNSTABLE: "it is unequal to the one the last call saw, so every call traces and compiles again",
}
_FIX = {
    ARRAY: "Return the array among the children, or keep a tuple of Python numbers there",
    MUTABLE: "Keep an immutable value there: a tuple, a frozenset, a tuple of sorted dict items, a frozen dataclass",
    UNSTABLE: (
        "Keep a module-level function, `Class.method`, or a value-hashed frozen dataclass there, built from "
        "hashable fields"
    ),
}


class _PytreeRule(Rule):
    """One hazard (an array, a mutable value, an unstable one) in `aux_data`, static fields, or both."""

    kind: ClassVar[str]
    in_aux: ClassVar[bool] = True
    in_static_fields: ClassVar[bool] = True

    def check(self, model: Model):
        aux, static = model.pytree_hazards
        reported = set()
        if self.in_aux:
            for element, held in aux:
                if held.kind == self.kind and (element.path, element.value.location) not in reported:
                    reported.add((element.path, element.value.location))
                    change = _changed_in_place(model, element.cls, element.value.ref, element.subject) if held.kind == MUTABLE else None
                    changed, related = _changed(change or _changed_object(model, held), change is not None)
                    yield self.finding(
                        element.path,
                        element.value.location,
                        f"the `aux_data` returned by {element.flatten} holds {held.what}{_given(held)}{changed}: "
                        f"{_why(self.kind, changed)}",
                        _FIX[self.kind],
                        related,
                        evidence=held.kind != MUTABLE or bool(changed),
                    )
        if self.in_static_fields:
            for field, held in static:
                if held.kind == self.kind and (field.path, field.location) not in reported:
                    reported.add((field.path, field.location))
                    name = field.cls.rpartition(".")[2]
                    change = _changed_field(model, field.cls, field.name) if held.kind == MUTABLE else None
                    changed, related = _changed(change or _changed_object(model, held), change is not None)
                    yield self.finding(
                        field.path,
                        field.location,
                        f"`{name}.{field.name}` is a static field ({field.how}), part of the tree's structure, "
                        f"and holds {held.what}{_given(held)}{changed}: {_why(self.kind, changed)}",
                        _FIX[self.kind],
                        related,
                        evidence=held.kind != MUTABLE or bool(changed),
                    )


def _why(kind: str, changed: str) -> str:
    if kind == MUTABLE and not changed:
        return "a change in place after a jit saw the tree (none is known here) would give a stale result"
    return _WHY[kind]


def _changed(change: Change | None, in_place: bool) -> tuple[str, tuple[Related, ...]]:
    """", changed in place by `...` at a.py:12" for the message, and the change as a related location."""
    if change is None:
        return "", ()
    return f", changed {'in place ' if in_place else ''}by {change.shown}", (related_change(change),)


def _changed_in_place(model: Model, cls: str | None, ref, subject) -> Change | None:
    """The change in place of the container an aux element reads off the object."""
    if cls is None or ref is None or subject is None or ref.base != subject.base or len(ref.attributes) != 1:
        return None
    return _changed_field(model, cls, ref.attributes[0])


def _changed_field(model: Model, cls: str, name: str) -> Change | None:
    for change in model.state.changes(cls):
        if change.in_place and change.path == (name,) and real_change(model, cls, change):
            return change
    return None


def _changed_object(model: Model, held: Held) -> Change | None:
    """A change by a method of the held object's class that can run after
    objects are built (its API, a setter). When a tree is flattened is not
    known, so a write from outside, which may be setup right after
    construction, is no evidence."""
    for cls, change in held.changes:
        if change.inside and real_change(model, cls, change):
            return change
    return None



def _given(held: Held) -> str:
    return f" (given at {place_named(held.where[0], held.where[1].line, held.where[1].column)})" if held.where is not None else ""


class ArrayInAuxData(_PytreeRule):
    """A pytree's flatten function puts an array in its `aux_data`: JAX keeps it in
    the tree's structure, not among the leaves, and `jax.jit` compares it with
    `==` on every call. A new array raises `ValueError`, a numpy array changed in
    place gives results for its old values, and a jax array can leak tracers.

    ## What it does

    Flags an element of the `aux_data` that a registered flatten function
    returns, when it holds an array. The flatten functions looked at:

    - `tree_flatten` of a class decorated with
      `@jax.tree_util.register_pytree_node_class` (or registered by a call,
      `Masked = register_pytree_node_class(Masked)`), and
      `tree_flatten_with_keys` and `tree_flatten` under
      `@register_pytree_with_keys_class`;
    - the flatten given to `register_pytree_node(Cls, flatten, unflatten)`
      (by position or as `flatten_func=`) and to
      `register_pytree_with_keys(Cls, flatten_with_keys, unflatten, flatten_func)`:
      a module-level function, a method (`Cls.flatten`) or a lambda.

    The `aux_data` is the second item of the pair the flatten returns. jaxcheck
    looks at each item when it is a tuple (`(self.n, self.mask)`), also through
    one local name (`aux = (self.n, self.mask)`, `m = self.mask`), and into the
    helpers whose result the flatten returns (`return self._flatten()`,
    `return _flatten(self)`), two levels deep. A flatten that reads the names a
    class declares (`tuple(getattr(self, n) for n in self.aux_fields)`, often
    in a base class) gives one element per name in the registered class's
    `aux_fields = ("name", "matrix")`, reported at that name. An element holds
    an array when it is:

    - made by an array constructor: `np.`/`jnp.` `array`, `asarray`, `zeros`,
      `ones`, `empty`, `full`, `arange`, `linspace`, `eye`, `identity`, the
      `*_like` forms, any `jax.random.*`, or a module-level name bound to one;
      arithmetic with one (`jnp.asarray(m) + 1`), or one indexed only to add an
      axis or slice (`np.asarray(m)[None]`); or what a project function or
      method returns when every `return` of it gives one (`self._mask()`), a
      property read in the flatten too (`scf.mo_coeff`: a new array on each
      flatten when the property builds it);
    - a field of the object being flattened (`self.mask`, `p.mask` in a flatten
      function or lambda) that holds an array, as far as the code says: its
      annotation in the class body (`np.ndarray`, `jax.Array`, `jnp.ndarray`,
      `numpy.typing.NDArray`, `chex.Array`, jaxtyping's `Float[Array, "n"]` and
      kin, also inside `Optional[...]`); what `__init__` (or `__post_init__` and
      the helpers they call) assigns to it (`self.mask = np.asarray(mask)`), or
      the annotation of the `__init__` parameter it is assigned from
      (`mask: np.ndarray`); or what the class's construction sites pass for it,
      by keyword or position (`Masked(x, 2, mask=np.ones(3))`), in any module of
      the project that jaxcheck reads.

    Reported on the element in the flatten (`self.mask` in
    `(self.n, self.mask)`, or the local's assignment when it goes through a
    local). The message says where the array comes from (`given at path:line`).

    ## Why is this bad?

    `aux_data` is part of the tree's structure (the treedef), and the treedef is
    part of `jax.jit`'s cache key. Checked on jax 0.10.2, CPU: JAX leaves
    `aux_data` out of the treedef's hash, finds the cached entry by comparing
    `aux_data` with `==`, and keeps the first call's treedef, with the very
    object in it, as the key. An element that *is* the cached object counts as
    equal without being compared. With an array there:

    - A new array, even with equal values, makes `==` return an array whose
      truth value is ambiguous, and the call fails:

          ValueError: Exception raised while checking equality of metadata
          fields of pytree. Make sure that metadata fields are hashable and have
          simple equality semantics. (Note: arrays cannot be passed as metadata
          fields!)

    - The same numpy array, changed in place, still matches the cached entry,
      and jit returns the result compiled for its old values: 4.0, then 4.0
      again where 6.0 is right, traced once
      (`fixtures/JAX301/fail_tree_flatten_method.py`). An array of one element
      compares without error, which is worse: after the change, even a *new*
      object holding the new value finds the old entry (2.0 where 5.0 is right).
    - A jax array in `aux_data` is not an argument of the trace, but every
      operation on it while tracing is staged. In that StackOverflow question,
      `type(p)(p.x * 2, p.y * 2)` puts a tracer into the output's `aux_data`:
      jit returns a tree whose `y` is a leaked tracer, and using it raises
      `UnexpectedTracerError: Encountered an unexpected tracer.` A numpy array is
      computed at once instead, which is why the question saw a tracer for `jnp` and
      not for `np` (`fail_seed_jnp_aux.py`, `fail_seed_np_aux.py`).

    Jake VanderPlas's answer on StackOverflow: `aux_data` must hold static elements,
    which must be hashable and immutable; arrays are neither, and putting them
    there gives "unsupported, poorly-defined behavior".

    ## Example

    ```python
    import jax
    import jax.numpy as jnp
    import numpy as np

    @jax.tree_util.register_pytree_node_class
    class Masked:
        def __init__(self, x, n, mask):
            self.x = x
            self.n = n
            self.mask = np.asarray(mask, dtype=np.float32)

        def tree_flatten(self):
            return (self.x,), (self.n, self.mask)  # JAX301 is reported on `self.mask`

        @classmethod
        def tree_unflatten(cls, aux_data, children):
            return cls(*children, *aux_data)

    @jax.jit
    def masked_sum(m):
        return jnp.sum(m.x * m.mask) * m.n

    masked = Masked(jnp.ones(3), 2, [1.0, 0.0, 1.0])
    print(masked_sum(masked))  # 4.0
    masked.mask[1] = 1.0
    print(masked_sum(masked))  # 4.0 again: 6.0 is right
    masked_sum(Masked(jnp.ones(3), 2, [1.0, 0.0, 1.0]))
    # ValueError: Exception raised while checking equality of metadata fields of pytree. ...
    ```

    ## Use instead

    Return the array among the children: it is traced like any array argument,
    read on every call, and only its shape and dtype are in the cache key. Keep
    Python values that steer the trace (here the int `n`) in `aux_data`.

    ```python
    import jax
    import jax.numpy as jnp
    import numpy as np

    @jax.tree_util.register_pytree_node_class
    class Masked:
        def __init__(self, x, n, mask):
            self.x = x
            self.n = n
            self.mask = mask

        def tree_flatten(self):
            return (self.x, self.mask), self.n  # the mask is a child: traced

        @classmethod
        def tree_unflatten(cls, n, children):
            x, mask = children
            return cls(x, n, mask)

    @jax.jit
    def masked_sum(m):
        return jnp.sum(m.x * m.mask) * m.n

    masked = Masked(jnp.ones(3), 2, np.array([1.0, 0.0, 1.0], dtype=np.float32))
    print(masked_sum(masked))  # 4.0
    masked.mask[1] = 1.0
    print(masked_sum(masked))  # 6.0, same compiled function
    ```

    When the values really are configuration that steers the trace, keep a
    tuple of Python numbers there instead (`tuple(self.mask.tolist())`): it
    compares by value, so new values compile again, and it cannot change in
    place.

    ## Fix

    No automatic fix: whether the array becomes a child (traced) or a tuple of
    Python numbers (static) is a design choice, and the flatten, the unflatten
    and the class change with it.

    ## Options

    JAX301 is reported under both profiles: a new array there makes `jax.jit`
    raise, a numpy array changed in place gives a stale result, and a jax array
    can leak a tracer, so the array itself is the evidence. No option is
    specific to JAX301.

    ## Known problems

    Not flagged, and fine (a jitted step over such a tree, 8 calls, traces
    once):

    - dtypes and types (`np.dtype("float32")`, `jnp.float32`, `float`), shapes
      as tuples, strings, numbers, `None`, tuples of those, and module-level
      functions;
    - arrays among the children, and arrays that the unflatten or the jitted
      function computes from static values without putting them in `aux_data`;
    - a field jaxcheck knows nothing about (unannotated, assigned from an
      unannotated parameter, and no construction site it reads passes an array):
      it never guesses.

    Not flagged, but broken just the same (checked: a second object with an
    equal mask raises the `ValueError` above), since jaxcheck does not follow
    the element:

    - an array inside a nested tuple (`(self.n, (self.mask,))`), inside a dict
      or list built in the flatten (`{"mask": self.mask}`), or inside a frozen
      dataclass built there (`Meta(2, self.mask)`);
    - an array read through `getattr(self, "mask")`, a tuple sum
      (`(1,) + (self.mask,)`), or a method that returns only the `aux_data`
      (`aux = self.aux()`);
    - an array made by another call (`jax.device_put(m)`), or passed only at
      construction sites in files jaxcheck does not read
      (files that mention neither `jit`/`pmap`, a static argument, a pytree
      registration nor a static field, nor call a function jitted elsewhere).

    Flagged, though it happens to work: one jax array object shared by every
    instance (`self.mask = MASK`, a module-level constant). JAX finds it equal to
    itself, and a jax array cannot change in place; the first instance holding
    another array object raises. If that is really all, put `# noqa: JAX301` on
    the reported line, or set `ignore = ["JAX301"]` or
    `per-file-ignores = { "tests/*" = ["JAX301"] }` in `[tool.jaxcheck]`.

    ## JAX versions checked

    From jax 0.11 on, the `ValueError` message also names the node's type.

    ## References

    - StackOverflow, "Why is custom pytree 'aux_data' traced after jax.jit()
      for jnp.array but not for np.array?", and Jake VanderPlas's
      answer, quoting the JAX docs: children hold the dynamic elements,
      `aux_data` the static ones, which must be "hashable and immutable";
      neither `np.ndarray` nor `jax.Array` is.
    - `jax.tree_util.register_pytree_node`: the flatten returns the children and
      "some hashable auxiliary data to be stored in the treedef".
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
    - JAX, "Custom pytree nodes".
      https://docs.jax.dev/en/latest/custom_pytrees.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      static values must be hashable, arrays are not, so "no static class can
      have dynamic children".
    """

    code = "JAX301"
    name = "array-in-aux-data"
    summary = "the `aux_data` returned by a flatten function holds an array"
    facts = ("aux-data",)
    kind = ARRAY
    in_static_fields = False


class ArrayInStaticField(_PytreeRule):
    """A pytree field declared static (`eqx.field(static=True)`,
    `struct.field(pytree_node=False)`, a `register_dataclass` meta field,
    `nnx.static(...)`) holds an array: it is part of the tree's structure, so
    `jax.jit` raises `ValueError` for the next object built with an equal array,
    or returns results for the array's old values after it changes in place.

    ## What it does

    Flags a field of a project class that is declared static by any of:

    - `eqx.field(static=True)` or `eqx.static_field()` (equinox);
    - `struct.field(pytree_node=False)` (`flax.struct`);
    - `dataclasses.field(metadata={"static": True})`,
      `metadata=dict(static=True)` or `jax.tree.static()`, on a class given to
      `jax.tree_util.register_dataclass` (as a decorator or by a call);
    - a name in `meta_fields` of
      `jax.tree_util.register_dataclass(Cls, data_fields=[...], meta_fields=[...])`,
      or of `@functools.partial(jax.tree_util.register_dataclass, ...)`;
    - `dataclasses.field(metadata={"pytree_node": False})` on a class made by
      penzai's `@pz.pytree_dataclass`;
    - `nnx.static(...)`, in the class body or assigned in a method
      (`self.mask = nnx.static(mask)`);
    - `jax_dataclasses.Static[...]` and `jax_dataclasses.static_field()`;
    - a project function every `return` of which is one of these
      (`def static_field(**kw): return dataclasses.field(metadata={"static": True}, **kw)`);

    when the field holds an array, as far as the code says:

    - its annotation: `jax.Array`, `jnp.ndarray`, `np.ndarray`,
      `numpy.typing.NDArray`, `chex.Array`, jaxtyping's `Float[Array, "n"]` and
      kin, also inside `Optional[...]`;
    - its default, or the value given to `nnx.static(...)`, made by an array
      constructor (`np.`/`jnp.` `array`, `asarray`, `zeros`, `ones`, `full`,
      `arange`, `linspace`, `eye`, the `*_like` forms, any `jax.random.*`);
    - what `__init__` (or `__post_init__` and the helpers they call) assigns to
      it (`self.mask = np.asarray(mask)`), or the annotation of the `__init__`
      parameter it is assigned from (`mask: jax.Array`);
    - what the class's construction sites pass for it, by keyword
      (`Model(w, mask=np.ones(3))`) or by position (the order of `__init__`'s
      parameters, or of the annotated fields when the class has none), in any
      module of the project that jaxcheck reads;
    - what a call of a setter that takes the field's name as a string gives
      for it (`scene.replace("info", {"loss": jnp.stack(losses)})`, where
      `replace(self, name, value)` sets the attribute named `name` on `self`
      or on a copy of it, by `setattr` or `object.__setattr__`): an array, or
      a dict, list or tuple display holding one. The object called on must be
      of the class (or a related one), or of a class jaxcheck does not know
      in a file that defines or imports the class.

    Reported on the field's declaration in the class body (or on the
    `self.mask = nnx.static(...)` line). The message names the specifier and
    where the array comes from (`given at path:line`). A static field holding a
    list or a dict is JAX303; a lambda or a bound method, JAX304.

    ## Why is this bad?

    Each of these specifiers makes the field part of the `aux_data` of the
    class's flatten, so everything in JAX301 applies: JAX compares the tree's
    structure with `==` on every call, and keeps the first object in its cache
    key. Checked on jax 0.10.2, flax 0.12.8, equinox 0.13.8, CPU:

    - `eqx.field(static=True)`: equinox warns as the model is built
      (`UserWarning: A JAX array is being set as static! This can result in
      unexpected behavior and is usually a mistake to do.`, for a numpy array
      too), then `jax.jit` raises on the second model with an equal mask:

          ValueError: Exception raised while checking equality of metadata
          fields of pytree. Make sure that metadata fields are hashable and have
          simple equality semantics. (Note: arrays cannot be passed as metadata
          fields!)

      `eqx.filter_jit` fails the same way (`ValueError: static arguments should
      be comparable using __eq__. ...`).
    - `register_dataclass(..., meta_fields=["mask"])` and
      `field(metadata={"static": True})`: the same `ValueError`, with no warning
      before it.
    - `struct.field(pytree_node=False)` with a numpy mask changed in place
      (the frozen dataclass stops `layer.mask = ...`, not `layer.mask[1] = 1.0`):
      4.0, then 4.0 again where 6.0 is right, traced once, no warning
      (`fixtures/JAX302/fail_flax_struct_static_array.py`).
    - `nnx.static(array)`: flax raises as soon as the attribute is set
      (`ValueError: Found data in value of type '<class 'numpy.ndarray'>'
      annotated with nnx.static(...) ...`). Loud, but only when that code runs.

    Reusing the very same array object for every model hides the error (JAX
    finds it equal to itself) until some code builds a new one. The array's
    values are compiled into the function as constants either way: it is data
    in the cache key, where only configuration belongs.

    ## Example

    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    class Model(eqx.Module):
        weight: jax.Array
        mask: jax.Array = eqx.field(static=True)  # JAX302 is reported on this line

        def __call__(self, x):
            return jnp.sum(self.weight * self.mask * x)

    @jax.jit
    def apply(model, x):
        return model(x)

    a = Model(jnp.ones(3), jnp.array([1.0, 0.0, 1.0]))  # UserWarning: A JAX array is being set as static! ...
    print(apply(a, jnp.ones(3)))  # 2.0
    b = Model(jnp.ones(3), jnp.array([1.0, 0.0, 1.0]))  # an equal mask, a new array
    apply(b, jnp.ones(3))
    # ValueError: Exception raised while checking equality of metadata fields of pytree. ...
    ```

    ## Use instead

    Make the array an ordinary field: a leaf, traced like `weight`. If it must
    not be trained, stop its gradient where it is used (`eqx.filter_grad` then
    gives it a zero gradient).

    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    class Model(eqx.Module):
        weight: jax.Array
        mask: jax.Array  # a leaf: traced

        def __call__(self, x):
            mask = jax.lax.stop_gradient(self.mask)  # not trained
            return jnp.sum(self.weight * mask * x)

    @jax.jit
    def apply(model, x):
        return model(x)

    print(apply(Model(jnp.ones(3), jnp.array([1.0, 0.0, 1.0])), jnp.ones(3)))  # 2.0
    print(apply(Model(jnp.ones(3), jnp.array([1.0, 0.0, 1.0])), jnp.ones(3)))  # 2.0, same compiled function
    ```

    The same goes for the other spellings: drop `pytree_node=False`, move the
    name from `meta_fields` to `data_fields`, use `nnx.data(...)` or a plain
    attribute. When the values really are configuration fixed at construction,
    store a tuple of Python numbers in the static field
    (`mask: tuple = eqx.field(static=True)`, read as `jnp.asarray(self.mask)`):
    equal tuples share one compiled function, and new values compile again.

    ## Fix

    No automatic fix: whether the array becomes a traced field or a tuple of
    Python numbers is a design choice.

    ## Options

    JAX302 is reported under both profiles: the array itself is the evidence
    (`jax.jit` raises for the next object built with an equal array, and a
    numpy array changed in place gives a stale result). No option is specific
    to JAX302.

    ## Known problems

    Not flagged, and fine:

    - static fields holding dtypes and types (`np.dtype("float32")`), shapes as
      tuples, strings, numbers, tuples of those, and module-level functions;
    - arrays in ordinary fields, numpy arrays included;
    - numpy arrays a method computes from static fields and does not keep
      (equinox issue 863);
    - a static field jaxcheck knows nothing about (annotated `Any`, and no
      construction site it reads passes an array): it never guesses;
    - arithmetic on a parameter that is rebound to an array on one path only
      (`if w is None: w = np.ones(n)`, then `w / w.sum()`): the field holds
      whatever the callers pass.

    Not flagged, but broken just the same (checked: `ValueError` on the second
    object): an array made by a `default_factory`
    (`default_factory=lambda: np.zeros(3)`) or by another call
    (`jax.device_put(m)`), given by a plain function that sets an attribute
    by name (`set_field(obj, "mask", m)`) or by `obj.mask = m` after
    construction, or given only at construction
    sites in files jaxcheck does not read (files that mention neither
    `jit`/`pmap`, a static argument, a pytree registration nor a static field,
    nor call a function jitted elsewhere).

    `field(metadata={"static": True})` counts only on a class jaxcheck sees
    given to `register_dataclass`: a class registered elsewhere (in an
    installed package, or through a name it does not follow) is not looked at.
    Flagged, but harmless: a pytree class JAX never flattens in normal use (a
    class whose methods run in numpy or numba only): the array itself is the
    evidence, and where objects of the class go is not followed.

    For a deliberate static array (one object, shared by every instance, never
    changed), put `# noqa: JAX302` on the reported line, or set
    `ignore = ["JAX302"]` or `per-file-ignores = { "tests/*" = ["JAX302"] }` in
    `[tool.jaxcheck]`.

    ## References

    - `equinox.field` docstring (equinox 0.13.8): `static=True` makes the field
      part of the PyTree structure; "it is usually a bug to make JAX arrays be
      static fields", and `static=True` "should very rarely be used".
    - `jax.tree_util.register_dataclass`: metadata fields "must be static,
      hashable, immutable objects, as these objects are used to generate JIT
      cache keys. In particular, metadata fields cannot contain `jax.Array` or
      `numpy.ndarray` objects."
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
    - `flax.struct.dataclass`: `pytree_node=False` declares static metadata.
    - penzai, `penzai.core.struct.is_pytree_node_field`: a field whose
      metadata has `"pytree_node": False` is kept in the treedef (checked with
      penzai 0.2.5: 4.0 where 6.0 is right).
    - StackOverflow, "Why is custom pytree 'aux_data' traced after jax.jit()
      for jnp.array but not for np.array?": the same behaviour under
      equinox's `static_field()` and simple_pytree's, and Jake VanderPlas's
      answer: static elements must be hashable and immutable.
    - equinox issue 863, "JAX array is set a static warning is raised
      unwantedly". https://github.com/patrick-kidger/equinox/issues/863
    """

    code = "JAX302"
    name = "array-in-static-field"
    summary = "a static pytree field (`eqx.field(static=True)`, `struct.field(pytree_node=False)`, `meta_fields`, ...) holds an array"
    facts = ("aux-data",)
    kind = ARRAY
    in_aux = False


class MutableAuxData(_PytreeRule):
    """A pytree's `aux_data` or static field holds a list, dict, set or another
    object that can be changed in place: `jax.jit` keeps that very object in its
    cache key, so after a change it still matches, and the next call returns the
    result compiled for the old contents, with no error.

    ## What it does

    Looks where JAX301 and JAX302 look: each element of the `aux_data` a
    registered flatten returns (`tree_flatten` of
    `@register_pytree_node_class`, the flatten of `register_pytree_node` or
    `register_pytree_with_keys`, through tuples, one local and returned
    helpers), and each static field (`eqx.field(static=True)`,
    `struct.field(pytree_node=False)`, `field(metadata={"static": True})`,
    `register_dataclass(meta_fields=...)`, `nnx.static(...)`,
    `jax_dataclasses.Static[...]`). Flags one that holds, as far as the code
    says:

    - a `list`, `dict`, `set` or `bytearray` kept on the object: a field
      annotated so (also `List`, `Dict`, `Set`, `MutableMapping`,
      `MutableSequence`), or an `__init__` parameter annotated so that the field
      is assigned from; a literal or `list(...)`, `dict(...)`, `set(...)`,
      `bytearray(...)` assigned while the object is built
      (`self.weights = list(weights)`); one given at a construction site
      (`Mixture(x, weights=[1.0, 2.0])`) in a module jaxcheck reads; a field
      specifier's `default_factory=list` (or `dict`, `set`, `bytearray`);
    - an object of a project class that is mutable and is changed after
      construction: the field's class-body annotation names the class, or the
      `__init__` parameter it is assigned from does, or the object is built
      into it (`self.cfg = Config(scale)`), and some code assigns an attribute
      of the class's instances after construction (a method other than
      `__init__`/`__post_init__`, or `c.scale = 3.0` on a name jaxcheck knows
      is a `Config`).

    The default profile reports only a container the code changes in place
    (see Options); the message then names the change.

    Reported on the element in the flatten, or on the static field's
    declaration; the message says where the value comes from
    (`given at path:line`).

    ## Why is this bad?

    JAX leaves `aux_data` out of the treedef's hash and compares it with `==`,
    so an unhashable list or dict raises nothing. But `jax.jit` keeps the first
    call's treedef as its cache key, with the object itself in it, not a copy.
    Change the list in place and the key changes with it: the same object still
    compares equal, and jit returns the result compiled for the old contents.
    Checked on jax 0.10.2, flax 0.12.8, equinox 0.13.8, CPU:

    - a list in `aux_data`, `m.weights.append(10.0)`: 3.0, then 3.0 again
      where 13.0 is right, one trace, no error, no warning. Worse, a *new*
      `Mixture` holding `[1.0, 2.0, 10.0]` now also gets 3.0: it equals the
      changed key;
    - a dict of options, `layer.options["activation"] = "relu"`: tanh's
      -0.964 again where relu's 0.0 is right
      (`fixtures/JAX303/fail_dict_aux.py`);
    - `eqx.field(static=True)` holding a list: equinox accepts it without a
      warning, and the frozen module stops `model.scales = ...`, not
      `model.scales.append(...)`: 3.0 where 13.0 is right
      (`fixtures/JAX303/fail_eqx_static_list.py`); `nnx.static([...])` behaves
      the same under `jax.jit` and `nnx.jit` (9.0 where 39.0 is right);
    - a plain `Config` object in `aux_data` (compared by identity), changed by
      `cfg.set_scale(3.0)`: 2.0, then 2.0 again where 3.0 is right.

    ## Example

    ```python
    import jax
    import jax.numpy as jnp

    @jax.tree_util.register_pytree_node_class
    class Mixture:
        def __init__(self, x, weights):
            self.x = x
            self.weights = list(weights)

        def tree_flatten(self):
            return (self.x,), self.weights  # JAX303 is reported on `self.weights`

        @classmethod
        def tree_unflatten(cls, weights, children):
            return cls(children[0], weights)

    @jax.jit
    def total(m):
        return m.x * sum(m.weights)

    m = Mixture(jnp.float32(1.0), [1.0, 2.0])
    print(total(m))  # 3.0
    m.weights.append(10.0)
    print(total(m))  # 3.0 again: 13.0 is right
    ```

    ## Use instead

    Keep an immutable value there, compared by value, and build a new object
    for new values:

    ```python
    import jax
    import jax.numpy as jnp

    @jax.tree_util.register_pytree_node_class
    class Mixture:
        def __init__(self, x, weights):
            self.x = x
            self.weights = tuple(weights)  # immutable, compared by value

        def tree_flatten(self):
            return (self.x,), self.weights

        @classmethod
        def tree_unflatten(cls, weights, children):
            return cls(children[0], weights)

    @jax.jit
    def total(m):
        return m.x * sum(m.weights)

    m = Mixture(jnp.float32(1.0), [1.0, 2.0])
    print(total(m))  # 3.0
    m = Mixture(m.x, m.weights + (10.0,))  # a new object for new weights
    print(total(m))  # 13.0: new weights, traced again
    ```

    Other fixes:

    - keep the mutable attribute, but flatten a snapshot of it: `tuple(self.weights)`,
      `tuple(sorted(self.options.items()))` (turned back into a dict in the
      unflatten), `frozenset(self.tags)`; a change then makes a new, unequal key
      and jit traces again (`fixtures/JAX303/pass_dict_aux.py`: relu's 0.0);
    - a frozen dataclass of hashable fields instead of a mutable config object;
    - if the values are data rather than configuration (weights you train),
      return them among the children, where they are traced and never compiled
      in.

    ## Fix

    No automatic fix: the aux data's container reaches the unflatten function
    and the code that changes it in place, which has to build a new pytree
    instead.

    ## Options

    The default profile reports JAX303 when the code changes the container in
    place (`m.weights.append(...)`, `layer.options["activation"] = ...`, an
    item write, in a method of the class or from outside) on the field that the
    `aux_data` element reads (`self.weights`) or that is declared static, or
    changes a mutable project object held there (`h.cfg.set_scale(3.0)`, by a
    setter or method that runs after objects are built, as for JAX101): that
    change gives the stale result. `strict` also reports a list, dict, set or
    bytearray that nothing changes in place, and a mutable project object
    nothing changes, as the design standard asks: what the tree's structure
    holds must be immutable.

    A class listed in `static-bases`, and its subclasses, count as immutable:
    holding one is not JAX303.

    ## Known problems

    Not flagged, and fine:

    - tuples, frozensets, strings, numbers, frozen dataclasses, `NamedTuple`s;
    - a container built in the flatten itself (`list(self.weights)`,
      `[self.a, self.b]`, `{"n": 2}`): each flatten makes a new one, compared by
      value and held by nobody else, so nobody changes it in place (checked: 3.0,
      then 13.0 after the append, traced twice);
    - a mutable object that nothing changes after construction, and a class in
      your `static-bases`.

    Not flagged by the default profile, but stale if it comes after a jit saw
    the tree: a project object held there and changed only from outside its
    class (`h.cfg.scale = 3.0`); jaxcheck does not know when a tree is
    flattened, and such a write is often setup. Nor a change made only by a
    method named like a container's (`append`, `update`, ...) that the project
    calls on no object of a known class (`parts[key].append(...)`): such names
    are called everywhere, so whether the project calls this one after the
    tree was flattened cannot be told (flax's `Updates.append` fills a tree
    while it is built).

    Not flagged, but stale just the same (checked):

    - a plain-class object whose type jaxcheck cannot tell (no annotation in
      the class body or on the `__init__` parameter, and not built there);
    - a change made through an attribute chain (`b.cfg.scale = 3.0`) or an alias
      (`cfg = b.cfg; cfg.scale = 3.0`), when nothing else changes that class;
    - a list given only at a construction site of `nnx.static(v)`
      (`N([1.0, 2.0])`), or at construction sites in files jaxcheck does not
      read (files that mention neither `jit`/`pmap`, a static argument, a pytree
      registration nor a static field, nor call a function jitted elsewhere).

    `strict` flags a list or dict that your code never changes in place: it
    works, but nothing stops the next change. A tuple costs nothing; else put
    `# noqa: JAX303` on the reported line, or set `ignore = ["JAX303"]` or
    `per-file-ignores = { "tests/*" = ["JAX303"] }` in `[tool.jaxcheck]`.

    ## References

    - StackOverflow, "Why is custom pytree 'aux_data' traced after jax.jit()
      for jnp.array but not for np.array?", Jake VanderPlas's answer:
      the static elements in `aux_data` "must be hashable and immutable";
      otherwise "you'll get unsupported, poorly-defined behavior".
    - `jax.tree_util.register_pytree_node`: the flatten returns "some hashable
      auxiliary data to be stored in the treedef".
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
    - `jax.tree_util.register_dataclass`: metadata fields "must be static,
      hashable, immutable objects, as these objects are used to generate JIT
      cache keys".
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_dataclass.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      static values must be immutable and hash and compare by value.
    """

    code = "JAX303"
    name = "mutable-aux-data"
    summary = "`aux_data` or a static field holds a list, dict, set or another mutable object"
    facts = ("aux-data",)
    kind = MUTABLE


class UnstableAuxData(_PytreeRule):
    """A pytree's `aux_data` or static field holds a lambda, a bound method or
    another object made anew, which compares equal only to itself: each flatten
    gives a tree structure unequal to the cached ones, and `jax.jit` traces and
    compiles again on every call, with no error and no warning.

    ## What it does

    Looks where JAX301 and JAX302 look: each element of the `aux_data` a
    registered flatten returns (through tuples, one local and returned helpers)
    and each static field (`eqx.field(static=True)`,
    `struct.field(pytree_node=False)`, `field(metadata={"static": True})`,
    `register_dataclass(meta_fields=...)`, `nnx.static(...)`,
    `jax_dataclasses.Static[...]`). Flags, in `aux_data`:

    - a lambda, a function defined inside the flatten, or a
      `functools.partial(...)` made there;
    - a bound method of the object being flattened (`self.predict`,
      `p.predict`): an instance method of its class, not a property, a
      `staticmethod` or a `classmethod`, and not of an `equinox.Module`;
    - an object built in the flatten that compares by identity: `object()`, or
      an instance of a project class with neither `__eq__` nor `__hash__` of its
      own, a `@dataclass(eq=False)`, or a `__hash__` from `id(self)`;
    - a field of the object that holds a lambda, a nested function, a
      `functools.partial` or a bound method made while the object is built
      (`self.act = lambda v: v * scale`, `self.act = self.relu`,
      `self.act = partial(jnp.multiply, scale)` in `__init__`).

    And a static field holding one of those made while the object is built
    (in `__init__`, `__post_init__` or their helpers), or given one where the
    object is built in a function (`Cost(fn=lambda v: ...)`,
    `Strategy(sampler=Sampler(n))` of a plain class, also through a field whose
    default is that class, `self.sampler_factory(n)`): each run of that
    function makes another. Such a construction is reported only where the
    code around it runs again and again (a loop, a function the project calls
    in one, a function the library offers its users).

    Reported on the element in the flatten, on the static field's declaration
    (the message says where the callable is made, `given at path:line`), or on
    the argument of the construction that gives it.

    ## Why is this bad?

    `aux_data` is part of the tree's structure, and `jax.jit` looks up its cache
    by comparing that structure with `==`. Functions, bound methods, partials
    and `object()` compare by identity, and a bound method by the identity of
    its `__self__`. A lambda made in the flatten is a new function on every
    flatten, so no cached entry ever matches: each call traces and compiles
    again (on jax 0.10.2 with `jax_log_compiles`, one XLA compilation per call).
    Checked on jax 0.10.2, equinox 0.13.8, CPU, each 4 calls where 1 trace is
    needed:

    - a lambda, `functools.partial`, nested function, `object()` or plain-class
      instance made in `tree_flatten`: 4 traces, even for the very same object
      passed 4 times (`fixtures/JAX304/fail_lambda_aux.py`,
      `fail_fresh_object_aux.py`);
    - `self.predict` in `tree_flatten`: the same object passed again hits the
      cache, but a training loop never passes it again: each jitted step returns
      a new object, whose bound method is unequal. 4 traces for 4 steps
      (`fail_bound_method_aux.py`);
    - `eqx.field(static=True)` holding `lambda v: v * scale` made in
      `__init__`: a jitted update that returns the model keeps the same lambda,
      but each `Model(w, 2.0)` built anew (a driver, a sweep, a reload) makes
      another: 4 traces (`fail_eqx_static_lambda.py`).

    The program stays correct, only slow: tracing and compiling run on every
    call instead of once.

    ## Example

    ```python
    import jax
    import jax.numpy as jnp

    class Meta:
        def __init__(self, name, scale):
            self.name = name
            self.scale = scale

    @jax.tree_util.register_pytree_node_class
    class Params:
        def __init__(self, w, name, scale):
            self.w = w
            self.name = name
            self.scale = scale

        def tree_flatten(self):
            return (self.w,), Meta(self.name, self.scale)  # JAX304 is reported on `Meta(...)`

        @classmethod
        def tree_unflatten(cls, meta, children):
            return cls(children[0], meta.name, meta.scale)

    @jax.jit
    def apply(params, x):
        print("tracing")
        return params.w * x * params.scale

    params = Params(jnp.float32(2.0), "dense", 0.5)
    for _ in range(4):
        apply(params, 3.0)  # "tracing" 4 times: each flatten makes a Meta equal only to itself
    ```

    ## Use instead

    Put values there that compare by value, or objects that exist once:

    ```python
    import dataclasses
    import jax
    import jax.numpy as jnp

    @dataclasses.dataclass(frozen=True)  # hashed and compared by value
    class Meta:
        name: str
        scale: float

    @jax.tree_util.register_pytree_node_class
    class Params:
        def __init__(self, w, name, scale):
            self.w = w
            self.name = name
            self.scale = scale

        def tree_flatten(self):
            return (self.w,), Meta(self.name, self.scale)  # or the tuple (self.name, self.scale)

        @classmethod
        def tree_unflatten(cls, meta, children):
            return cls(children[0], meta.name, meta.scale)

    @jax.jit
    def apply(params, x):
        print("tracing")
        return params.w * x * params.scale

    params = Params(jnp.float32(2.0), "dense", 0.5)
    for _ in range(4):
        apply(params, 3.0)  # "tracing" once
    ```

    For callables: a module-level function (`relu`, not
    `lambda v: jnp.maximum(v, 0.0)`), `Regressor.predict` looked up on the class
    rather than `self.predict`, and the parameters a lambda closed over kept as
    static values of their own (`scale: float = eqx.field(static=True)`, with
    `act = scale_by` a module-level function): 1 trace in each fixture's
    `pass_*.py`.

    ## Fix

    No automatic fix: what to keep instead of the function or object made per
    flatten (a module-level function, a value) depends on what it is for.

    ## Options

    JAX304 is reported under both profiles: a value made anew on every flatten,
    or for every object built, is unequal to the last one, and that is the
    evidence of a compilation on every call. A class listed in `singletons` is
    taken to be right to compare by identity: building one in the flatten is
    not JAX304.

    ## Known problems

    Not flagged, and fine:

    - module-level functions, `Class.method`, library functions, classes and
      types, dtypes, `Enum` members;
    - objects compared by value built in the flatten: a dataclass with its
      generated `__eq__` (frozen or not), a `NamedTuple`, a tuple;
    - properties (`self.n` where `n` is a `@property` is read, not bound);
    - methods of an `equinox.Module`: equinox binds them so that they compare
      by value (`M(2).f == M(2).f` is true);
    - a lambda written in the class body (`act: Callable =
      struct.field(pytree_node=False, default=lambda v: v)`): made once;
    - a lambda or sentinel made at module level.

    Not flagged, but retracing just the same (checked, 4 traces where 1 is
    needed), because jaxcheck counts these only when made in the flatten itself,
    or, for callables, while the object is built:

    - an identity-compared object made in `__init__` and kept
      (`self.meta = Meta(name)`, `self.tag = object()`, returned as
      `aux_data`): fine for the same object, but an unflatten that goes through
      `__init__` makes a new one for every jitted step's output;
    - a lambda passed at a construction site in a function nothing shows
      running twice (`EqxModel(w, lambda v: v * scale)` in a `main`): one
      structure, compiled once.

    May be reported though nothing retraces: a bound method or `partial` stored
    in `__init__` is the same object for as long as that object lives, so it
    retraces only when objects are rebuilt through `__init__` (an unflatten
    that calls it, a new model per run).

    If the objects are never rebuilt (one object, updated only by jitted steps
    that carry the same `aux_data` along), put `# noqa: JAX304` on the reported
    line, or set `ignore = ["JAX304"]` or
    `per-file-ignores = { "tests/*" = ["JAX304"] }` in `[tool.jaxcheck]`.

    ## References

    - StackOverflow, "Why is custom pytree 'aux_data' traced after jax.jit()
      for jnp.array but not for np.array?": the JAX docs quoted there,
      `aux_data` holds the static elements "that will be rolled into the treedef
      structure", and Jake VanderPlas's answer: they must be hashable and
      immutable.
    - `jax.tree_util.register_pytree_node`: the auxiliary data is "stored in the
      treedef".
      https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
    - the TORAX design standard for JAX-compatible classes ("Designing JAX-compatible classes"):
      all objects other than singletons must hash by value, "to avoid paying the
      cost of recompilation" when each run builds equivalent copies; a function
      defined by `def` is a singleton, but "the method self.foo has self bound
      to it, one must install <class>.foo as a field instead".
    - `flax.struct.dataclass`: `apply_fn: Callable = struct.field(pytree_node=False)`,
      a callable kept as static metadata, which must be the same object (or an
      equal one) from call to call.
    """

    code = "JAX304"
    name = "unstable-aux-data"
    summary = "`aux_data` or a static field holds a lambda, bound method or new identity-hashed object: retraces"
    facts = ("aux-data",)
    kind = UNSTABLE

    def check(self, model: Model):
        yield from super().check(model)
        yield from self._construction_sites(model)

    def _construction_sites(self, model: Model):
        """`Cost(fn=lambda v: ...)` in a function: each run of it gives the static
        field another callable (or identity-compared object), so trees built by
        two runs have unequal structures. Reported at the argument, where that
        code runs again and again; built once (at module level, in `main`), it
        is one structure, compiled once."""
        for static in static_fields(model.symbols):
            field = next((item for item in model.classes.fields(static.cls) if item.name == static.name), None)
            if field is None:
                continue
            name = static.cls.rpartition(".")[2]
            for path, call, held in model.values.made_per_construction(static.cls, field):
                built = construction_runs_again(model, path, call)
                if not built:
                    continue  # built once for all jaxcheck sees: one structure, and the field's own check covers it
                yield self.finding(
                    path,
                    held.where[1],
                    f"`{name}.{static.name}` is a static field ({static.how}), part of the tree's structure, and "
                    f"this construction gives it {held.what}: it is {built}, so trees built by two runs have "
                    "unequal structures and each compiles again",
                    _FIX[UNSTABLE],
                )
