# `int(t)` turns each value of the data into a Python int, which `eqx.filter_jit` keeps static: one compilation per value.
import equinox as eqx


@eqx.filter_jit
def advance(state, t):
    return state * 0.5 + t


def simulate(state, times):
    for t in times:
        state = advance(state, int(t))  # expect: JAX402
    return state
