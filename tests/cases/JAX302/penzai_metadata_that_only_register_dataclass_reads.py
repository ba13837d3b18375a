# Each metadata key means something only to the registration that reads it: penzai's is `pytree_node`.
# Under `pz.pytree_dataclass`, `{"static": True}` is ignored (the mask is a leaf); a plain dataclass
# is no pytree, whatever its metadata says. Neither field is static.
import dataclasses

import jax
import numpy as np
from penzai import pz


@pz.pytree_dataclass
class Layer(pz.Struct):
    weight: jax.Array
    mask: np.ndarray = dataclasses.field(metadata={"static": True})


@dataclasses.dataclass
class Plain:
    mask: np.ndarray = dataclasses.field(metadata={"pytree_node": False})
