# Fields annotated ArrayLike but given scalars hold no array: the NamedTuple is static-safe.
# Correct JAX code a review found flagged, checked under jax 0.10.2: right results, no extra traces.
from functools import partial
from typing import NamedTuple, Callable
import jax, jax.numpy as jnp
from jax.typing import ArrayLike

class Hparams(NamedTuple):
    eps: ArrayLike = 1e-6
    decay: jax.typing.ArrayLike = 0.9
    fn: Callable = jnp.tanh

@partial(jax.jit, static_argnames="hp")
def upd(x, hp: Hparams):
    return hp.fn(x) * hp.decay + hp.eps

print(upd(1.0, hp=Hparams()), upd(1.0, hp=Hparams(1e-3)))
