"""The cost of `jaxcheck watch` per jitted call: a training loop of small jitted
steps, timed unwatched and watched in turn in one process, as a ratio.

    python bench/watch_overhead.py [--steps 2000] [--rounds 15]

Four loops: `plain`, a jitted SGD step on a small MLP's parameters (no
static argument); `static`, the same step with one frozen-dataclass config
passed as a static argument; `fresh`, the same with an equal config built anew
for each step (which the watch compares, state and all, with the keys it has
seen); and `tiny`, a jitted step that does nothing (returns its parameters),
for the cost of the watch itself next to JAX's own dispatch. Each round times
each loop unwatched and watched, in turn (which goes first alternates); the
ratio is the median of the rounds' ratios (the machines are shared: a ratio of
two runs made in turn is steadier than either).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import jaxcheck  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Config:
    learning_rate: float = 0.01
    activation: str = "tanh"


def _loss(params, x, y, activation):
    hidden = getattr(jnp, activation)(x @ params["w1"] + params["b1"])
    return jnp.mean((hidden @ params["w2"] + params["b2"] - y) ** 2)


def make_steps():
    """The two steps, transformed now: inside a watch they are watched."""

    @jax.jit
    def plain(params, x, y):
        grads = jax.grad(_loss)(params, x, y, "tanh")
        return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)

    @functools.partial(jax.jit, static_argnames="config")
    def static(params, x, y, config):
        grads = jax.grad(_loss)(params, x, y, config.activation)
        return jax.tree_util.tree_map(lambda p, g: p - config.learning_rate * g, params, grads)

    @jax.jit
    def tiny(params, x, y):
        return params

    return plain, static, tiny


def _train(step, params, batches, config=None):
    start = time.perf_counter()
    for x, y in batches:
        if config is None:
            params = step(params, x, y)
        else:
            params = step(params, x, y, config=config() if callable(config) else config)
    jax.block_until_ready(params)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    key = jax.random.key(0)
    params = {
        "w1": jax.random.normal(key, (8, 16)) * 0.1, "b1": jnp.zeros(16),
        "w2": jax.random.normal(key, (16, 1)) * 0.1, "b2": jnp.zeros(1),
    }
    batches = [(jax.random.normal(jax.random.key(i), (32, 8)), jnp.ones((32, 1))) for i in range(args.steps)]
    config = Config()
    unwatched = make_steps()
    times = {name: ([], []) for name in ("plain", "static", "fresh", "tiny")}
    # Functions made outside the watch are JAX's own, unwatched, inside it too.
    with jaxcheck.watch() as seen:
        watched = make_steps()
        for round_ in range(args.rounds + 1):  # the first round warms up (compiles)
            for name, index in (("plain", 0), ("static", 1), ("fresh", 1), ("tiny", 2)):
                extra = {"plain": None, "static": config, "fresh": Config, "tiny": None}[name]
                order = (0, 1) if round_ % 2 else (1, 0)  # in turn, first one then the other
                for which in order:
                    step = (unwatched, watched)[which][index]
                    times[name][which].append(_train(step, params, batches, extra))
    print(f"jax {jax.__version__}, Python {sys.version.split()[0]}, {args.steps} steps x {args.rounds} rounds")
    for name, (bare, looked) in times.items():
        bare_call = statistics.median(bare[1:]) / args.steps * 1e6
        looked_call = statistics.median(looked[1:]) / args.steps * 1e6
        ratio = statistics.median(after / before for before, after in zip(bare[1:], looked[1:]))
        print(f"{name:>7}: {bare_call:6.1f} us a step unwatched, {looked_call:6.1f} us watched: ratio {ratio:.2f}, "
              f"{looked_call - bare_call:+.1f} us a call")
    if seen:
        print(f"(the watch reported {len(seen)} findings on the benchmark itself: {[finding.code for finding in seen]})")


if __name__ == "__main__":
    main()
