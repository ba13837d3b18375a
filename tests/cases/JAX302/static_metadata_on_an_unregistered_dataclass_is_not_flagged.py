# `metadata={"static": True}` means something only to register_dataclass: this class is no pytree.
import dataclasses

import numpy as np

@dataclasses.dataclass
class Plain:
    mask: np.ndarray = dataclasses.field(metadata={"static": True})
