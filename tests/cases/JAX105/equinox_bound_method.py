# A bound method of an eqx.Module compares by its module's value: equal configs do not retrace.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import equinox as eqx, jax
from functools import partial
from typing import Callable

class Helper(eqx.Module):
    k: float = 2.0
    def scale(self, x):
        return x * self.k

TRACES = 0
class Cfg(eqx.Module):
    fn: Callable
    n: int
    def __init__(self, n, helper: Helper):
        self.n = n
        self.fn = helper.scale

@partial(jax.jit, static_argnums=1)
def f(x, c: Cfg):
    global TRACES; TRACES += 1
    return c.fn(x) + c.n

def run():
    for _ in range(3):
        f(1.0, Cfg(1, Helper()))
run()
a, b = Helper().scale, Helper().scale
print("traces", TRACES, a == b, hash(a) == hash(b), type(a))
