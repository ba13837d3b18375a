# The ids come from the model's output, and each id's own output size is static: one compilation per size.
# A COCO-like evaluation with ~5000 images of many sizes compiles `resize` thousands of times.
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1,))
def resize(image, shape):
    return jax.image.resize(image, shape + image.shape[-1:], "nearest")


class Evaluator:
    def __init__(self, size_map):
        self.size_map = size_map

    def run(self, predict, batch):
        out = jax.device_get(predict(batch))
        ids = out["image/id"][out["mask"] != 0]
        masks = out["y"][out["mask"] != 0]
        for mask, image_id in zip(masks, ids):
            yield resize(jnp.asarray(mask), self.size_map[image_id])  # expect: JAX402
