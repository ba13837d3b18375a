"""`jaxcheck server` (issue 17): the language server, as an editor meets it.

One real session over standard input and output, driven by pygls's own
language client against `python -m jaxcheck server` in a subprocess: open,
change, code action, save, shutdown and exit. Waits for notifications are
generous and assert what arrives, never how soon. The pieces the session is
made of (the findings of open documents, diagnostics, `# noqa` edits, the
warm cache) are tested in-process beside it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from helpers import BUG_LINE, BUGGY, CLEAN, check_text, write
from jaxcheck.cli import main
from jaxcheck.config import load_config
from jaxcheck.engine import check
from jaxcheck.findings import Finding, Related
from jaxcheck.loading.cache import Cache
from jaxcheck.report.formats import PAGE_URL
from jaxcheck.report.noqa import with_noqa
from jaxcheck.server.actions import actions_for, noqa_action
from jaxcheck.server.diagnostics import diagnostic, message
from jaxcheck.server.session import Session

WAIT = 120  # seconds: a cold start imports LibCST and parses the project on a shared machine

PYPROJECT = '[project]\nname = "demo"\nversion = "0"\n\n[tool.jaxcheck]\nprofile = "strict"\n'
SETTINGS = """\
class Settings:
    def __init__(self, steps):
        self.steps = steps
"""
INTEGRATE = """\
from functools import partial

import jax

from pkg.settings import Settings


@partial(jax.jit, static_argnums=1)
def integrate(x, settings: Settings):
    return x * settings.steps
"""
INTEGRATE_FIXED = INTEGRATE.replace("@partial(jax.jit, static_argnums=1)", "@jax.jit")
# Modules enough for the cold first run to parse them in worker processes, as
# on a real project (workers forked from the server hung on its standard input).
JITTED = "import jax\n\n\n@jax.jit\ndef double(x):\n    return 2 * x\n"


def project(root: Path) -> Path:
    write(root, "pyproject.toml", PYPROJECT)
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/settings.py", SETTINGS)
    write(root, "pkg/integrate.py", INTEGRATE)
    write(root, "demo.py", BUGGY)
    for number in range(20):
        write(root, f"pkg/jitted_{number}.py", JITTED)
    return root


class Client(LanguageClient):
    """pygls's client, keeping every diagnostics notification and the server's exit code."""

    def __init__(self) -> None:
        super().__init__("jaxcheck-tests", "0")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.arrived = asyncio.Condition()
        self.returncode: int | None = None

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        async def published(client: Client, params: types.PublishDiagnosticsParams) -> None:
            async with client.arrived:
                client.diagnostics[params.uri] = list(params.diagnostics)
                client.arrived.notify_all()

    async def server_exit(self, server) -> None:
        self.returncode = server.returncode

    async def until(self, uri: str, wanted) -> list[types.Diagnostic]:
        """The diagnostics of `uri` once `wanted(diagnostics)` holds (earlier runs may publish first)."""
        async with self.arrived:
            await asyncio.wait_for(
                self.arrived.wait_for(lambda: uri in self.diagnostics and wanted(self.diagnostics[uri])), WAIT
            )
            return self.diagnostics[uri]


def codes(diagnostics) -> list[tuple[str, int]]:
    return sorted((d.code, d.range.start.line) for d in diagnostics)


def test_a_session_over_stdio(tmp_path, monkeypatch):
    root = project(tmp_path)
    demo, settings, integrate = (str(root / name) for name in ("demo.py", "pkg/settings.py", "pkg/integrate.py"))
    # What `jaxcheck check` finds in the workspace folder with the same texts: the diagnostics must say the same.
    monkeypatch.chdir(root)
    config = load_config(str(root / "pyproject.toml"))
    expected = check([demo, settings, integrate], lambda _: config, use_cache=False).findings
    assert {(f.path, f.code) for f in expected} == {(path, code) for path in (demo, settings) for code in ("JAX101", "JAX102")}

    async def session() -> Client:
        client = Client()
        await client.start_io(sys.executable, "-m", "jaxcheck", "server", cwd=str(root))
        try:
            return await conversation(client)
        finally:
            server = client._server  # pygls's handle on the process: a failed test must not leave it running
            if server is not None and server.returncode is None:
                server.kill()
                await server.wait()

    async def conversation(client: Client) -> Client:
        result = await client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(root)))
        )
        assert result.server_info.name == "jaxcheck"
        assert list(result.capabilities.code_action_provider.code_action_kinds) == [types.CodeActionKind.QuickFix]
        client.initialized(types.InitializedParams())

        def open_document(path: str) -> str:
            uri = from_fs_path(path)
            item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=Path(path).read_text())
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
            return uri

        def change(uri: str, version: int, text: str, at: types.Range | None = None) -> None:
            event = (
                types.TextDocumentContentChangePartial(range=at, text=text)
                if at is not None
                else types.TextDocumentContentChangeWholeDocument(text=text)
            )
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[event],
                )
            )

        # A document with a JAX bug: its findings, where `jaxcheck check` puts them, with what they say.
        demo_uri = open_document(demo)
        found = await client.until(demo_uri, lambda d: len(d) == 2)
        assert codes(found) == [("JAX101", BUG_LINE - 1), ("JAX102", BUG_LINE - 1)]
        for sent in found:
            finding = next(f for f in expected if f.path == demo and f.code == sent.code)
            assert sent.source == "jaxcheck"
            assert sent.message == message(finding)
            assert sent.code_description.href == PAGE_URL.format(code=sent.code)
            assert (sent.range.start.character, sent.range.end.character) == (0, len("class Vehicle"))  # to the name
            assert [
                (info.location.uri, info.location.range.start.line + 1, info.location.range.start.character + 1, info.message)
                for info in sent.related_information or []
            ] == [(from_fs_path(os.path.abspath(r.path)), r.line, r.column, r.note) for r in finding.related]

        # The code action adds `# noqa: JAX101`; applied, that finding goes and the other stays.
        jax101 = next(d for d in found if d.code == "JAX101")
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=demo_uri),
                range=jax101.range,
                context=types.CodeActionContext(diagnostics=[jax101]),
            )
        )
        assert [action.title for action in actions] == ["Add `# noqa: JAX101` to this line"]
        (edit,) = actions[0].edit.changes[demo_uri]
        assert edit.new_text == "  # noqa: JAX101"
        change(demo_uri, 2, edit.new_text, edit.range)
        assert codes(await client.until(demo_uri, lambda d: len(d) == 1)) == [("JAX102", BUG_LINE - 1)]

        # The fixed text clears the document.
        change(demo_uri, 3, CLEAN)
        await client.until(demo_uri, lambda d: d == [])

        # A class made static in another file: shown in the class's file, and
        # gone once the use is no longer static, though that file is untouched.
        settings_uri, integrate_uri = open_document(settings), open_document(integrate)
        assert codes(await client.until(settings_uri, lambda d: len(d) == 2)) == [("JAX101", 0), ("JAX102", 0)]
        await client.until(integrate_uri, lambda d: d == [])
        change(integrate_uri, 2, INTEGRATE_FIXED)
        await client.until(settings_uri, lambda d: d == [])
        change(integrate_uri, 3, INTEGRATE)
        await client.until(settings_uri, lambda d: len(d) == 2)
        # Closing a document withdraws its diagnostics.
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=settings_uri))
        )
        await client.until(settings_uri, lambda d: d == [])

        # Saving publishes the document's diagnostics again.
        del client.diagnostics[integrate_uri]
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=integrate_uri))
        )
        await client.until(integrate_uri, lambda d: d == [])

        await client.shutdown_async(None)
        client.exit(None)
        await asyncio.wait_for(client.stop(), WAIT)
        return client

    client = asyncio.run(session())
    assert client.returncode == 0


def test_without_pygls_the_server_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` now raises ImportError
    assert main(["server"]) == 2
    assert 'pip install ".[server]"' in capsys.readouterr().err


# --- the findings of open documents ------------------------------------------------------------


def test_a_document_is_checked_with_its_unsaved_text_and_the_project_around_it(tmp_path):
    root = project(tmp_path)
    settings, integrate = str(root / "pkg/settings.py"), str(root / "pkg/integrate.py")
    session = Session(jobs=1)  # in this process, which imported JAX: no forked workers
    found = session.findings({settings: SETTINGS, integrate: INTEGRATE})
    assert sorted((f.line, f.code) for f in found[settings]) == [(1, "JAX101"), (1, "JAX102")]
    assert found[integrate] == []
    # The unsaved fix in integrate.py clears settings.py, whose text is on disk unchanged.
    assert session.findings({settings: SETTINGS, integrate: INTEGRATE_FIXED}) == {settings: [], integrate: []}


def test_the_projects_config_is_honoured_and_read_again(tmp_path):
    root = project(tmp_path)
    demo = str(root / "demo.py")
    session = Session(jobs=1)  # in this process, which imported JAX: no forked workers
    assert sorted(f.code for f in session.findings({demo: BUGGY})[demo]) == ["JAX101", "JAX102"]
    write(root, "pyproject.toml", PYPROJECT + '\n[tool.jaxcheck.per-file-ignores]\n"demo.py" = ["JAX102"]\n')
    assert [f.code for f in session.findings({demo: BUGGY})[demo]] == ["JAX101"]
    write(root, "pyproject.toml", PYPROJECT.replace('profile = "strict"', 'select = ["JAX102"]'))
    assert [f.code for f in session.findings({demo: BUGGY})[demo]] == ["JAX102"]
    write(root, "pyproject.toml", PYPROJECT + "surprise = 1\n")
    (problem,) = session.findings({demo: BUGGY})[demo]
    assert (problem.line, problem.code) == (1, "JAX000")
    assert "configuration error" in problem.message and "surprise" in problem.message


def test_the_session_s_cache_keeps_in_memory_the_facts_the_last_run_used(tmp_path):
    cache = Cache(None, remember=True)  # no folder: memory only
    facts = object()
    cache.begin_run()
    cache.store_facts("a", facts)
    cache.save()
    cache.begin_run()
    assert cache.facts("a") is facts  # used again: kept for the next run too
    cache.save()
    cache.begin_run()
    cache.save()  # a run that did not use it
    cache.begin_run()
    assert cache.facts("a") is None  # let go


def test_the_session_ends_its_worker_processes(tmp_path):
    session = Session(jobs=2)
    files = {str(tmp_path / f"m{n}.py"): "import jax\nf = jax.jit(lambda x: x)\n" for n in range(40)}
    write(tmp_path, "pyproject.toml", "")
    for path, text in files.items():
        Path(path).write_text(text)
    session.findings(files)
    workers = list(getattr(session.pool._executor, "_processes", {}).values()) if session.pool._executor else []
    session.close()
    assert all(not worker.is_alive() for worker in workers)


# --- diagnostics and code actions --------------------------------------------------------------


def test_a_diagnostic_carries_the_fix_the_rule_page_and_the_related_places(tmp_path):
    other = str(tmp_path / "use.py")
    write(tmp_path, "use.py", "x = 1\ny = f(cfg)\n")
    finding = Finding(
        str(tmp_path / "cfg.py"),
        2,
        5,
        "JAX101",
        "`Cfg` is mutable",
        fix="Make `Cfg` a frozen dataclass",
        related=(Related(other, 2, 7, "made static here"),),
    )
    lines = ["import x\n", "😀 = Cfg()  # why\n"]
    made = diagnostic(finding, lines, PositionCodec(), lambda path: Path(path).read_text().splitlines(True))
    assert made.message == "`Cfg` is mutable. Make `Cfg` a frozen dataclass."
    assert (made.code, made.source) == ("JAX101", "jaxcheck")
    assert made.code_description.href == PAGE_URL.format(code="JAX101")
    # Columns count UTF-16 units (the emoji is two), and the range leaves the comment out.
    assert (made.range.start.line, made.range.start.character, made.range.end.character) == (1, 5, 10)
    (related,) = made.related_information
    assert related.location.uri == from_fs_path(other)
    assert (related.location.range.start.line, related.location.range.start.character) == (1, 6)
    assert related.location.range.end.character == len("y = f(cfg)")
    assert related.message == "made static here"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("class A:", "class A:  # noqa: JAX101"),
        ("class A:   ", "class A:  # noqa: JAX101"),
        ("class A:  # noqa: JAX102", "class A:  # noqa: JAX102, JAX101"),
        ("class A:  # noqa:JAX102,JAX103  # why", "class A:  # noqa:JAX102,JAX103, JAX101  # why"),
        ("class A:  # a comment", "class A:  # a comment  # noqa: JAX101"),
        ("class A:  # noqa", None),
        ("class A:  # NOQA: JAX1", None),
    ],
)
def test_noqa_is_added_or_merged(line, expected):
    assert with_noqa("JAX101", line) == expected


def test_the_noqa_action_edits_only_what_changes():
    document = TextDocument("file:///p/demo.py", "x = 1\nclass A:  # noqa: JAX102\n", version=1)
    sent = types.Diagnostic(
        range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=8)),
        message="m",
        code="JAX101",
        source="jaxcheck",
    )
    action = noqa_action(document, sent)
    (edit,) = action.edit.changes["file:///p/demo.py"]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (1, 24, 24)
    assert edit.new_text == ", JAX101"
    assert action.diagnostics == [sent]
    silenced = TextDocument("file:///p/demo.py", "x = 1\nclass A:  # noqa\n", version=1)
    assert noqa_action(silenced, sent) is None


def test_a_fixable_finding_gets_its_fix_as_an_action_before_noqa():
    text = (
        "from functools import partial\n\nimport jax\n\n\n@partial(jax.jit, static_argnums=1)\n"
        "def f(x, dims):\n    return x * sum(dims)\n\n\nf(1.0, [1, 2])  # the dims\n"
    )
    document = TextDocument("file:///p/demo.py", text, version=1)
    (finding,) = [finding for finding in check_text(text, dedent=False).findings if finding.code == "JAX106"]
    sent = diagnostic(finding, document.lines, document.position_codec, lambda path: document.lines)
    fix, noqa = actions_for(document, sent, finding)
    assert fix.title and not fix.title.endswith("computes)") and fix.is_preferred
    (edit,) = fix.edit.changes["file:///p/demo.py"]
    assert (edit.range.start.line, edit.range.end.line) == (10, 11)
    assert edit.new_text == "f(1.0, (1, 2))  # the dims\n"
    assert noqa.title == "Add `# noqa: JAX106` to this line"
    # Once the document changed, the published finding is gone: no fix is offered on stale positions.
    assert [action.title for action in actions_for(document, sent, None)] == [noqa.title]
