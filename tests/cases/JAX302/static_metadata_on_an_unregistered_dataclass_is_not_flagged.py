# `metadata={"static": True}` means something only to register_dataclass: this class is no pytree.
import dataclasses

import jax
import numpy as np
from jax.tree_util import register_pytree_node_class

@dataclasses.dataclass
class Plain:
    mask: np.ndarray = dataclasses.field(metadata={"static": True})
