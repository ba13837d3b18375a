# A private helper of a public `fit` jits `value_and_grad(loss)` into a local and reuses it in its loop: every call of `fit` compiles again.
# jax 0.10.2 and 0.12.0.1: `value_and_grad(loss)` is a new function object per call, and the jit's cache goes with it.
import jax


def _descend(loss, x, steps, lr):
    step = jax.jit(jax.value_and_grad(loss))  # expect: JAX401
    for _ in range(steps):
        _, grad = step(x)
        x = x - lr * grad
    return x


def fit(loss, x0, steps=100, lr=0.1):
    return _descend(loss, x0, steps, lr)
