# `with_metrics` is a comparison: it takes two values, so the step compiles twice at most, on purpose.
import functools

import jax


@functools.partial(jax.jit, static_argnames="with_metrics")
def next_state(state, with_metrics=False):
    return state + 1, (state if with_metrics else None)


def train(state, num_steps, metrics_every=None):
    for i in range(num_steps):
        with_metrics = False if metrics_every is None else i % metrics_every == 0
        state, _ = next_state(state, with_metrics=with_metrics)
        state, _ = next_state(state, with_metrics=not i)
    return state
