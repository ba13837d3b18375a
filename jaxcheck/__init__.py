"""jaxcheck: find the values JAX treats as static that make it return stale results or recompile."""

__version__ = "0.1.0"


def __getattr__(name: str):
    """`jaxcheck.watch` is imported on first use: `import jaxcheck` never imports JAX."""
    if name == "watch":
        import importlib

        return importlib.import_module("jaxcheck.watch")
    raise AttributeError(f"module 'jaxcheck' has no attribute {name!r}")
