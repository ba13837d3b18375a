# A factory that fills the list its jitted closure reads, and hands out only the jitted function: every change
# comes before the first trace. jax 0.10.2: `predict(2.0)` gives 2.0 * (1.0 + 3.0) = 8.0, the right value.
import jax


def make_model():
    weights = [1.0]

    @jax.jit
    def predict(x):
        return x * sum(weights)

    def add_weight(w):
        weights.append(w)

    add_weight(3.0)
    return predict
