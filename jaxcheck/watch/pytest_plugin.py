"""The watch as a pytest plugin: a project's own test suite becomes the runtime check.

`pytest --jaxcheck-watch` reports, at the end of the run, what the watch saw
and, for each test, the findings that arose while it ran;
`--jaxcheck-watch=error` also fails each test during which a finding arose.
Registered through the `pytest11` entry point; `-p jaxcheck.watch.pytest_plugin`
loads it where jaxcheck is not installed. Without the option it does nothing
(it imports neither JAX nor the watch).
"""

from __future__ import annotations

import pytest

_MODES = ("report", "error")
_STATE_KEY = "_jaxcheck_watch"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("jaxcheck")
    group.addoption(
        "--jaxcheck-watch",
        nargs="?",
        const="report",
        default=None,
        choices=_MODES,
        metavar="report|error",
        help="watch JAX's transforms while the tests run and report the cache hazards seen "
        "(stale results, recompilations); =error also fails the test during which one arose",
    )


class _Session:
    def __init__(self, mode: str) -> None:
        from jaxcheck.watch import watch

        self.mode = mode
        self._context = watch()
        self.seen = self._context.__enter__()
        self.by_test: dict[str, list] = {}

    def close(self) -> None:
        self._context.__exit__(None, None, None)


def _mode(config) -> str | None:
    try:
        return config.getoption("jaxcheck_watch")
    except ValueError:
        return None


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    """On before the conftests are read: their imports' `@jax.jit` are watched too."""
    mode = getattr(early_config.known_args_namespace, "jaxcheck_watch", None)
    if mode and not hasattr(early_config, _STATE_KEY):
        setattr(early_config, _STATE_KEY, _Session(mode))


def pytest_configure(config) -> None:
    mode = _mode(config)
    if mode and not hasattr(config, _STATE_KEY):
        setattr(config, _STATE_KEY, _Session(mode))


def pytest_unconfigure(config) -> None:
    session = getattr(config, _STATE_KEY, None)
    if session is not None:
        session.close()
        delattr(config, _STATE_KEY)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    session = getattr(item.config, _STATE_KEY, None)
    if session is None:
        yield
        return
    from jaxcheck.watch import new_case

    new_case()  # a parametrised test's values, one per case, are not one call site's many
    start = len(session.seen)
    yield
    found = session.seen[start:]
    if found:
        session.by_test[item.nodeid] = list(found)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    session = getattr(item.config, _STATE_KEY, None)
    if session is None or call.when != "call":
        return
    found = session.by_test.get(item.nodeid)
    if not found:
        return
    report = outcome.get_result()
    text = _lines(found)
    report.sections.append(("jaxcheck watch", text))
    if session.mode == "error" and report.passed:
        report.outcome = "failed"
        report.longrepr = f"jaxcheck watch saw {len(found)} cache hazard{'s' if len(found) != 1 else ''} during this test:\n{text}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    session = getattr(config, _STATE_KEY, None)
    if session is None:
        return
    terminalreporter.section("jaxcheck watch")
    if not session.seen:
        terminalreporter.write_line("no findings")
        return
    terminalreporter.write(_lines(session.seen))
    count = len(session.seen)
    terminalreporter.write_line(f"{count} finding{'s' if count != 1 else ''}")


def _lines(findings) -> str:
    import io

    from jaxcheck.report.formats import write_concise

    out = io.StringIO()
    write_concise(findings, out)
    return out.getvalue()
