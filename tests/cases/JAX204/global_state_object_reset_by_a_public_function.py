# A module global that holds an object (or None) the array code calls into, reset by a public function: state,
# not a constant a trace compiles in. Only a global bound to a number, a string or a tuple of those is.
# Users jit `swap` (`jax.jit(swap)`), and call `reset_state()` between runs.
import jax.numpy as jnp

_races = None
_listeners = []


class RaceState:
    def __init__(self):
        self.seen = 0


def reset_state():
    global _races, _listeners
    _races = RaceState()
    _listeners = []


def swap(x, y):
    if _races is not None:
        _races.seen += 1
    for listener in _listeners:
        listener(x)
    return jnp.where(x > y, y, x)
