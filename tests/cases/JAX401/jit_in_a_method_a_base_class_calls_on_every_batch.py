# A base class calls `self._eval_model(batch)` on every batch; the subclass's override jits a nested function each time.
# jax 0.10.2 and 0.12.0.1: each eval batch traces and compiles the nested function again.
import jax


class Workload:
    def evaluate(self, batches):
        return [self._eval_model(batch) for batch in batches]

    def _eval_model(self, batch):
        raise NotImplementedError


class CifarWorkload(Workload):
    def _eval_model(self, batch):
        @jax.jit  # expect: JAX401
        def _eval_model_jitted(x):
            return x.sum()

        return _eval_model_jitted(batch)
