# A public setter rebinds a global that public array code reads, which users jit (the library jits nothing itself); a setter of a global read only by plain Python is not flagged.
# jax 0.10.2: `jax.jit(crop_view)` traced with RADIUS=3, then `set_radius(5)`: the compiled view keeps a 7-wide crop.
import jax.numpy as jnp

RADIUS = 3
VERBOSE = False


def set_radius(r):
    global RADIUS
    RADIUS = r  # expect: JAX204


def set_verbose(flag):
    global VERBOSE
    VERBOSE = flag


def crop_view(grid, x, y):
    size = 2 * RADIUS + 1
    return jnp.zeros((size, size)) + grid[x, y]


def describe(grid):
    return f"{len(grid)} rows" + (" (verbose)" if VERBOSE else "")


class Frame:
    # A constructor reads the switch when an object is built, outside any trace.
    def __init__(self, grid):
        self.checked = jnp.asarray(grid) if VALIDATE else grid


VALIDATE = True


def set_validation(state):
    global VALIDATE
    VALIDATE = state
