"""The codes that have a fix, without importing LibCST: the CLI asks before it loads the fixes."""

FIXABLE_CODES = frozenset({"JAX101", "JAX102", "JAX103", "JAX106", "JAX401"})
