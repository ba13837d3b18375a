# @dataclass generates `__eq__` over all fields, overriding the base's name-only `__eq__`: nothing left out.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
import dataclasses
from functools import partial
import jax

class Schedule:
    name = "base"
    def __eq__(self, other):
        return isinstance(other, Schedule) and self.name == other.name
    def __hash__(self):
        return hash(self.name)
    def __call__(self, step):
        raise NotImplementedError

@dataclasses.dataclass(frozen=True)
class Linear(Schedule):
    slope: float = 1.0
    def __call__(self, step):
        return step * self.slope

@partial(jax.jit, static_argnums=1)
def lr(step, s: Linear):
    return s(step)

print(lr(2.0, Linear(1.0)), lr(2.0, Linear(3.0)))
