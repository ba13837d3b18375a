"""What every test shares: a cache folder of the test run's own.

jaxcheck keeps its cache in the user's cache folder; the tests, and the
programs they run in subprocesses (which inherit the environment), keep
theirs in a temporary folder instead, so that a test run never writes into
the home folder of whoever runs it.
"""

from __future__ import annotations

import os
import tempfile

_CACHE = tempfile.mkdtemp(prefix="jaxcheck-test-cache-")
os.chmod(_CACHE, 0o700)
os.environ["JAXCHECK_CACHE_DIR"] = _CACHE
