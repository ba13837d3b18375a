# Static parameters annotated with primitive types (int, str, bool, float, Optional, tuple) are hashable.
import jax
from typing import Optional

@jax.jit(static_argnames=("n", "name", "flag", "scale", "maybe", "shape"))
def f(x, n: int, name: str, flag: bool, scale: float, maybe: Optional[int], shape: tuple):
    return x * n

f(1.0, 2, "a", True, 1.5, None, (1, 2))
