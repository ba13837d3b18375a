# An application's editor, built once by the program's own `main()`: its public settings are not a library's API.
# jax 0.10.2 and 0.12.0.1: `main()` builds one Editor and never changes `upscale`: every overlay is right.
import jax


class Editor:
    def __init__(self, upscale):
        self.upscale = upscale
        self._render = jax.jit(self._overlay)

    def _overlay(self, pixels):
        return pixels * self.upscale


def main():
    editor = Editor(2)
    return [editor._render(float(step)) for step in range(3)]
