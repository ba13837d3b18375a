"""A library pytree whose public method, with a name of its own, changes a static list: its users can call it after a jit saw the tree."""
import dataclasses

import jax


@dataclasses.dataclass
class Updates:
    keys: list  # expect: JAX303
    values: list

    def record(self, key, value):
        self.keys.append(key)
        self.values.append(value)


jax.tree_util.register_dataclass(Updates, data_fields=["values"], meta_fields=["keys"])


@jax.jit
def total(updates):
    return sum(updates.values)
