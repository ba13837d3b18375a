# `sizes[i]` changes with the loop index: a static output shape looked up per turn compiles once per distinct size.
# The fixture fail_value_from_loop_variable.py runs this shape: 12 sizes, 12 traces, where 1 is needed.
import functools

import jax


@functools.partial(jax.jit, static_argnums=(1,))
def resize(img, size):
    return jax.image.resize(img, size, "linear")


def thumbnails(images, sizes):
    out = []
    for i in range(len(sizes)):
        out.append(resize(images[i], sizes[i]))  # expect: JAX402
    return out
