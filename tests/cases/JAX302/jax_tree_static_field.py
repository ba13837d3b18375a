# `jax.tree.static()` is `field(metadata={"static": True})`: an array there is metadata.
# jax 0.10.2: `jax.tree.static()` is `field(metadata={"static": True})`: an array there is metadata.
import dataclasses

import jax

@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Masked:
    x: jax.Array
    mask: jax.Array = jax.tree.static()  # expect: JAX302
