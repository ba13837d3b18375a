"""A library pytree's static list filled by its `append` while the object is built, then returned: whether anything appends later cannot be told, so only strict flags it."""
import dataclasses

import jax


@dataclasses.dataclass
class Updates:
    keys: list  # strict: JAX303
    values: list

    def append(self, key, value):
        self.keys.append(key)
        self.values.append(value)


jax.tree_util.register_dataclass(Updates, data_fields=["values"], meta_fields=["keys"])


def collect(pairs):
    updates = {None: Updates([], [])}
    for key, value in pairs:
        updates[None].append(key, value)
    return updates[None]


@jax.jit
def step(x):
    return collect([("a", x), ("b", x * 2)])
