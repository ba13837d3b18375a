"""A generated JAX monorepo: the project an editor saves one file of.

`make_monorepo` writes one project (a `pyproject.toml` at its root) of about
`files` small modules: a shared `common` package and packages of 100 modules
each. Four modules in five are ordinary Python (helpers and classes that
import from their siblings and from `common`); the fifth holds JAX code in the
shapes jaxcheck's rules look at: `jax.jit(f, static_argnums=...)`,
`@partial(jax.jit, static_argnames=...)` with a frozen dataclass config,
pytree classes (`register_pytree_node_class`, `register_dataclass`) and
equinox-style modules. The first package, and every 50th after it, plants two
real bugs (a mutable plain class passed static, a list passed static), so
that a run has findings to compute. Nothing is random: the same arguments
write the same bytes, so runs on two machines measure the same text. Nothing
here is imported by jaxcheck, so nothing needs to resolve.

`edit` changes one module's facts (a new function), as a save in an editor
does, for the one-file-edit measurements: of an ordinary module, and of a JAX
module.

    python bench/monorepo.py FOLDER [--files 20000]
"""

from __future__ import annotations

import argparse
import os

MODULES_PER_PACKAGE = 100
# The shapes of a JAX module, in turn; index by module number.
_JAX_SHAPES = ("jit_call", "partial_config", "pytree_class", "register_dataclass", "equinox_module")
# A package whose number is a multiple of this holds the planted bugs.
BUG_EVERY = 50
# The module of a buggy package that holds the bugs: the last, which no module imports.
BUG_MODULE = MODULES_PER_PACKAGE - 2
# The module of package 0 that `edit` changes: ordinary, imported by its neighbour.
EDITED_MODULE = os.path.join("pkg_000", "mod_011.py")
# A JAX module of package 0 (a pytree class), for an edit of a file that takes part.
JAX_EDITED_MODULE = os.path.join("pkg_000", "mod_014.py")

_PYPROJECT = """\
[project]
name = "monorepo"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["jax>=0.4.30", "numpy"]
"""

_COMMON_CONFIG = '''\
"""Configs shared by every package: frozen, so they hash by value."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    learning_rate: float = 1e-3
    num_layers: int = 4
    hidden: int = 128
    activation: str = "relu"


@dataclasses.dataclass(frozen=True)
class EvalConfig:
    batch_size: int = 64
    metrics: tuple[str, ...] = ("loss", "accuracy")


DEFAULT_TRAIN = TrainConfig()
DEFAULT_EVAL = EvalConfig()
'''

_COMMON_UTIL = '''\
"""Small helpers shared by every package."""

from __future__ import annotations

import functools
import math


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def chunks(items: list, size: int) -> list[list]:
    return [items[start:start + size] for start in range(0, len(items), size)]


@functools.lru_cache(maxsize=None)
def schedule(step: int, warmup: int = {warmup}) -> float:
    if step < warmup:
        return step / warmup
    return 0.5 * (1 + math.cos(math.pi * min(step - warmup, {horizon}) / {horizon}))


class Registry:
    """Names to factories, filled at import time."""

    def __init__(self) -> None:
        self._entries: dict[str, object] = {{}}

    def register(self, name: str, factory: object) -> object:
        self._entries[name] = factory
        return factory

    def get(self, name: str) -> object:
        return self._entries[name]

    def names(self) -> list[str]:
        return sorted(self._entries)
'''


def _ordinary(package: int, module: int) -> str:
    """Helpers and a class importing from a sibling and from `common`."""
    sibling = module - 2 if module % 5 == 0 else module - 1  # never a JAX module
    util = (package + module) % 10
    n = package * MODULES_PER_PACKAGE + module
    lines = [
        f'"""Bookkeeping for stage {module} of package {package}."""',
        "",
        "from __future__ import annotations",
        "",
        "import collections",
        "import logging",
        "",
        f"from common.util_{util:02d} import Registry, chunks, clamp",
        f"from pkg_{package:03d}.mod_{sibling:03d} import helper_{sibling}" if sibling >= 0 else "",
        "",
        "LOG = logging.getLogger(__name__)",
        "REGISTRY = Registry()",
        "",
        "",
        f"def helper_{module}(values: list[float], limit: float = {n % 7 + 1}.0) -> list[float]:",
        f'    """Values clamped to +-limit, then passed through stage {sibling}."""',
        "    clamped = [clamp(value, -limit, limit) for value in values]",
        f"    return helper_{sibling}(clamped) if len(clamped) > {n % 5 + 3} else clamped"
        if sibling >= 0
        else "    return clamped",
        "",
        "",
        f"class Stage{module}:",
        f'    """Counts what passes through stage {module}."""',
        "",
        "    def __init__(self, name: str, size: int) -> None:",
        "        self.name = name",
        "        self.size = size",
        "        self.seen = collections.Counter()",
        "",
        "    def feed(self, batch: list[float]) -> list[list[float]]:",
        "        for value in batch:",
        "            self.seen[round(value)] += 1",
        f"        return chunks(helper_{module}(batch), self.size)",
        "",
        "    def report(self) -> str:",
        "        common = self.seen.most_common(3)",
        '        LOG.debug("%s: %s", self.name, common)',
        '        return ", ".join(f"{key}={count}" for key, count in common)',
        "",
        "",
        f'REGISTRY.register("stage_{module}", Stage{module})',
    ]
    if module % 3 == 0:
        lines += [
            "",
            "",
            f"def summarize_{module}(stages: list[Stage{module}]) -> dict[str, str]:",
            "    return {stage.name: stage.report() for stage in stages}",
        ]
    return "\n".join(lines) + "\n"


def _jit_call(package: int, module: int) -> str:
    n = package * MODULES_PER_PACKAGE + module
    return f'''\
"""A jitted kernel with its sizes static, called with ints and tuples."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from pkg_{package:03d}.mod_{module - 1:03d} import helper_{module - 1}


def _kernel_{module}(x, width, axes):
    y = jnp.reshape(x, (-1, width))
    return jnp.sum(y * {n % 9 + 1}, axis=axes)


kernel_{module} = jax.jit(_kernel_{module}, static_argnums=(1, 2))


def apply_{module}(batch):
    values = helper_{module - 1}([float(v) for v in batch])
    x = jnp.asarray(values)
    return kernel_{module}(x, {n % 4 + 1}, (0,))


def apply_all_{module}(batches):
    return [kernel_{module}(jnp.asarray(b), 2, (1,)) for b in batches]


def normalize_{module}(x, eps=1e-6):
    mean = jnp.mean(x)
    return (x - mean) / (jnp.std(x) + eps)
'''


def _partial_config(package: int, module: int) -> str:
    return f'''\
"""A train step whose config is static: a frozen dataclass, hashed by value."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp

from common.config import DEFAULT_TRAIN, TrainConfig


@partial(jax.jit, static_argnames=("config",))
def step_{module}(params, batch, config: TrainConfig):
    def loss(p):
        hidden = jnp.tanh(batch @ p["w"])
        for _ in range(config.num_layers):
            hidden = jnp.tanh(hidden)
        return jnp.mean(hidden**2)

    grads = jax.grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, g: p - config.learning_rate * g, params, grads)


def train_{module}(params, batches, config: TrainConfig = DEFAULT_TRAIN):
    for batch in batches:
        params = step_{module}(params, batch, config=config)
    return params


def init_{module}(key, width={module % 8 + 2}):
    w = jax.random.normal(key, (width, width))
    return {{"w": w, "b": jnp.zeros((width,))}}
'''


def _pytree_class(package: int, module: int) -> str:
    return f'''\
"""A pytree class: arrays as children, a name and a size as aux data."""

from __future__ import annotations

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Layer{module}:
    def __init__(self, weight, bias, name: str = "layer{module}", size: int = {module % 16 + 1}):
        self.weight = weight
        self.bias = bias
        self.name = name
        self.size = size

    def __call__(self, x):
        return jnp.dot(x, self.weight) + self.bias

    def tree_flatten(self):
        return (self.weight, self.bias), (self.name, self.size)

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        name, size = aux_data
        return cls(*children, name=name, size=size)


def make_layer_{module}(key, size={module % 16 + 1}):
    weight = jax.random.normal(key, (size, size))
    return Layer{module}(weight, jnp.zeros((size,)), size=size)


@jax.jit
def forward_{module}(layer, x):
    return jax.nn.relu(layer(x))
'''


def _register_dataclass(package: int, module: int) -> str:
    return f'''\
"""A dataclass pytree registered with its data and meta fields named."""

from __future__ import annotations

import dataclasses
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass, data_fields=["mean", "var"], meta_fields=["axis"])
@dataclasses.dataclass
class Stats{module}:
    mean: jax.Array
    var: jax.Array
    axis: int = 0


def stats_{module}(x, axis: int = 0) -> Stats{module}:
    return Stats{module}(jnp.mean(x, axis=axis), jnp.var(x, axis=axis), axis)


@jax.jit
def standardize_{module}(stats: Stats{module}, x):
    return (x - stats.mean) / jnp.sqrt(stats.var + 1e-5)


def merge_{module}(left: Stats{module}, right: Stats{module}) -> Stats{module}:
    return jax.tree_util.tree_map(lambda a, b: (a + b) / 2, left, right)
'''


def _equinox_module(package: int, module: int) -> str:
    return f'''\
"""An equinox-style module: arrays as leaves, a static activation name."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp


class Block{module}(eqx.Module):
    weight: jax.Array
    bias: jax.Array
    activation: str = eqx.field(static=True, default="gelu")

    def __call__(self, x):
        y = x @ self.weight + self.bias
        return jax.nn.gelu(y) if self.activation == "gelu" else jax.nn.relu(y)


def make_block_{module}(key, width={module % 8 + 4}):
    weight = jax.random.normal(key, (width, width)) / width
    return Block{module}(weight, jnp.zeros((width,)))


@eqx.filter_jit
def run_{module}(block: Block{module}, x):
    return block(x)
'''


def _bugs(package: int) -> str:
    """The two planted bugs: a mutable plain class and a list, passed static."""
    return f'''\
"""Options for package {package}'s solver: two static arguments gone wrong."""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp


class SolverOptions:
    def __init__(self, tolerance: float, iterations: int):
        self.tolerance = tolerance
        self.iterations = iterations


@partial(jax.jit, static_argnames=("options",))
def solve(x, options: SolverOptions):
    for _ in range(options.iterations):
        x = x - options.tolerance * jnp.sign(x)
    return x


@partial(jax.jit, static_argnums=1)
def pad(x, widths):
    return jnp.pad(x, widths)


def run(x):
    options = SolverOptions(1e-3, 10)
    first = solve(x, options=options)
    options.iterations = 20
    second = solve(first, options=options)
    return pad(second, [1, 2])
'''


_WRITERS = {
    "jit_call": _jit_call,
    "partial_config": _partial_config,
    "pytree_class": _pytree_class,
    "register_dataclass": _register_dataclass,
    "equinox_module": _equinox_module,
}


def _module_text(package: int, module: int) -> str:
    if module % 5 == 4:
        shape = _JAX_SHAPES[(module // 5 + package) % len(_JAX_SHAPES)]
        return _WRITERS[shape](package, module)
    return _ordinary(package, module)


def _write(path: str, text: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def make_monorepo(folder: str, files: int = 20000) -> list[str]:
    """Write the monorepo into `folder`; the paths of its Python files."""
    packages = max(1, round((files - 12) / MODULES_PER_PACKAGE))
    _write(os.path.join(folder, "pyproject.toml"), _PYPROJECT)
    written = [
        _write(os.path.join(folder, "common", "__init__.py"), '"""Shared by every package."""\n'),
        _write(os.path.join(folder, "common", "config.py"), _COMMON_CONFIG),
    ]
    for n in range(10):
        text = _COMMON_UTIL.format(warmup=100 * (n + 1), horizon=1000 * (n + 1))
        written.append(_write(os.path.join(folder, "common", f"util_{n:02d}.py"), text))
    for package in range(packages):
        where = os.path.join(folder, f"pkg_{package:03d}")
        written.append(_write(os.path.join(where, "__init__.py"), f'"""Package {package}."""\n'))
        for module in range(MODULES_PER_PACKAGE - 1):
            text = _bugs(package) if module == BUG_MODULE and package % BUG_EVERY == 0 else _module_text(package, module)
            written.append(_write(os.path.join(where, f"mod_{module:03d}.py"), text))
    return written


def edit(folder: str, module: str = EDITED_MODULE) -> str:
    """Add a function to one module, as a save in an editor would; its path.

    The ordinary module gains a plain function: no finding can rest on it, so
    a run reuses the findings. A JAX module (`JAX_EDITED_MODULE`) gains a
    jitted one: it takes part, so the project is judged again. Each call adds
    another function, so consecutive edits each change the text.
    """
    path = os.path.join(folder, module)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    n = text.count("\ndef edited_")
    if module == EDITED_MODULE:
        addition = f"\n\ndef edited_{n}(values: list[float]) -> float:\n    return sum(helper_11(values)) * {n + 2}\n"
    else:
        addition = f"\n\n@jax.jit\ndef edited_{n}(x):\n    return x * {n + 2}\n"
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text + addition)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--files", type=int, default=20000)
    args = parser.parse_args()
    written = make_monorepo(args.folder, args.files)
    print(f"{len(written)} Python files in {args.folder}")


if __name__ == "__main__":
    main()
