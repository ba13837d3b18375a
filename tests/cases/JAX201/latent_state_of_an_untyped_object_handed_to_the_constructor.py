# A trainer jits the `evaluate` of the model its caller hands in, untyped: `model` is named after the one family of
# project classes that defines `evaluate` (BaseModel and its subclasses), so it is taken to hold a BaseModel.
# jax 0.10.2 and 0.12.0.1: after a user's `model.scale = 3.0`, `trainer.run(x)` still multiplies by 2.0.
import jax


class BaseModel:
    def __init__(self, scale):
        self.scale = scale

    def evaluate(self, x):
        return x * self.scale


class WideModel(BaseModel):
    def evaluate(self, x):
        return 2 * x * self.scale


class Trainer:
    def __init__(self, model):
        self._model = model
        self._evaluate = jax.jit(self._model.evaluate)  # expect: JAX201

    def run(self, x):
        return self._evaluate(x)
