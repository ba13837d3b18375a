# `penzai.core.struct.pytree_dataclass` spelled from its module: `pytree_node: False` puts the
# numpy mask into the treedef (stale after an in-place change, checked with penzai 0.2.5).
import dataclasses

import jax
import numpy as np
from penzai.core import struct


@struct.pytree_dataclass
class Layer(struct.Struct):
    weight: jax.Array
    mask: np.ndarray = dataclasses.field(metadata={"pytree_node": False})  # expect: JAX302
