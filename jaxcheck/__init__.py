"""jaxcheck: find the values JAX treats as static that make it return stale results or recompile."""

__version__ = "0.1.0"
