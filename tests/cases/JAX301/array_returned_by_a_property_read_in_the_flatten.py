# A flatten that reads a property puts what the property returns in aux_data: a new array on each flatten.
# jax 0.10.2: `np.asarray(self._coeff)[None]` is a new array object per flatten; comparing two treedefs raises ValueError.
from typing import Optional

import jax
import numpy as np


class Orbitals:
    def __init__(self, coeff, restricted: bool):
        self._coeff = coeff
        self.restricted = restricted

    @property
    def coeff(self) -> Optional[np.ndarray]:
        if self._coeff is None:
            return None
        if self.restricted:
            return np.asarray(self._coeff)[None]
        return np.asarray(self._coeff)

    @property
    def shape(self):
        return tuple(np.shape(self._coeff))

    @property
    def first(self):
        return self._coeff[0]


def flatten(orbitals: Orbitals):
    aux = (orbitals.coeff, orbitals.restricted)  # expect: JAX301
    return (), aux


def unflatten(aux, children):
    return Orbitals(*aux)


def flatten_shape(orbitals: Orbitals):
    return (), (orbitals.shape, orbitals.first, orbitals.restricted)


class Shaped(Orbitals):
    pass


jax.tree_util.register_pytree_node(Orbitals, flatten, unflatten)
jax.tree_util.register_pytree_node(Shaped, flatten_shape, unflatten)
