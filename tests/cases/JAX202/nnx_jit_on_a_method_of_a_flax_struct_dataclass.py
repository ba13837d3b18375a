# nnx.jit on a method of a flax.struct dataclass: the class is a registered pytree, so `self` is traced leaf by leaf.
# jax 0.10.2 (flax 0.12.8) and 0.12.0.1 (flax 0.12.12): Affine(2.0, b=1.0).apply(3.0) gives 7.0.
import jax
import jax.numpy as jnp
from flax import nnx, struct


@struct.dataclass
class Affine:
    w: jax.Array
    b: float = struct.field(pytree_node=False, default=0.0)

    @nnx.jit
    def apply(self, y):
        return self.w * y + self.b


Affine(jnp.float32(2.0), 1.0).apply(jnp.float32(3.0))
