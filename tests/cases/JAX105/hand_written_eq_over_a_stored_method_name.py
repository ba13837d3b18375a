# Bound methods chosen from `method`, which eq and hash compare, follow the key: equal solvers share a trace.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
# jitted method with static self; eq/hash over config only; bound method cached as dispatch
from functools import partial
import jax

TRACES = 0
class Solver:
    def __init__(self, method, tol):
        self.method = method
        self.tol = tol
        self._step = self._newton if method == "newton" else self._bisect
        self._impl = self._newton
    def __setattr__(self, k, v):
        if hasattr(self, "_impl"):
            raise AttributeError("frozen")
        super().__setattr__(k, v)
    def __hash__(self):
        return hash((Solver, self.method, self.tol))
    def __eq__(self, other):
        return isinstance(other, Solver) and (self.method, self.tol) == (other.method, other.tol)
    def _newton(self, x):
        return x / 2
    def _bisect(self, x):
        return x / 3
    @partial(jax.jit, static_argnums=0)
    def solve(self, x):
        global TRACES; TRACES += 1
        return self._impl(x) + self.tol

def run():
    for _ in range(3):
        Solver("newton", 1e-3).solve(1.0)
run(); print("traces", TRACES)
