"""The language server: jaxcheck's findings as diagnostics while the user types.

A document opened, changed or saved schedules a run for its project: changes
are debounced, one run at a time goes to a worker thread (the event loop
keeps answering the client), and a change during a run asks for another once
it ends. A run checks every open document of the project with its unsaved
text, so a finding another file causes (a class line in `settings.py` made
static by a use in `integrate.py`) shows and clears as that file is edited.
"""

from __future__ import annotations

import asyncio
import os
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jaxcheck import __version__
from jaxcheck.findings import Finding
from jaxcheck.loading.pool import Stopped
from jaxcheck.loading.project import find_project
from jaxcheck.loading.source import SourceError, read_source
from jaxcheck.server.actions import actions_for
from jaxcheck.report.ranges import Ranges
from jaxcheck.server.diagnostics import SOURCE, diagnostic
from jaxcheck.server.session import Session

DEBOUNCE = 0.3  # seconds of quiet after a change before a run starts
_PYTHON_SUFFIXES = (".py", ".pyi")


@dataclass(frozen=True)
class _Published:
    version: int | None
    diagnostics: tuple[tuple[Finding, types.Diagnostic], ...]


class JaxcheckServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jaxcheck", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = Session()
        self.published: dict[str, _Published] = {}  # uri -> what the client was last sent
        # One worker: runs never overlap, and the project's warm facts are never shared between threads.
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxcheck")
        self._timers: dict[str, asyncio.TimerHandle] = {}  # project root -> its pending run
        self._running: set[str] = set()
        self._tasks: set[asyncio.Future] = set()
        self._again: set[str] = set()  # projects changed during their run
        self._asked: dict[str, set[str]] = {}  # project root -> the documents whose change asked for a run

    def schedule(self, uri: str, delay: float) -> None:
        """A run for the project of the document at `uri`, once `delay` seconds pass with no other change."""
        path = _path_of(uri, self.workspace.get_text_document(uri).language_id)
        if path is None:
            return
        root = find_project(path).root
        self._asked.setdefault(root, set()).add(uri)
        pending = self._timers.pop(root, None)
        if pending is not None:
            pending.cancel()
        self._timers[root] = asyncio.get_running_loop().call_later(delay, self._start, root)

    def _start(self, root: str) -> None:
        self._timers.pop(root, None)
        if root in self._running:
            self._again.add(root)
            return
        self._running.add(root)
        task = asyncio.ensure_future(self._run(root))
        self._tasks.add(task)  # the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    async def _run(self, root: str) -> None:
        try:
            while True:
                self._again.discard(root)
                asked = self._asked.pop(root, set())
                documents = {
                    path: (document.uri, document.version, document.source)
                    for document in list(self.workspace.text_documents.values())
                    if (path := _path_of(document.uri, document.language_id)) is not None
                    and find_project(path).root == root
                }
                texts = {path: text for path, (_, _, text) in documents.items()}
                try:
                    found = await asyncio.get_running_loop().run_in_executor(self._worker, self.session.findings, texts)
                except Stopped:  # the server is exiting
                    return
                except Exception:  # a bug of ours: told in the client's log, and the session goes on
                    self.window_log_message(
                        types.LogMessageParams(type=types.MessageType.Error, message=traceback.format_exc())
                    )
                    return
                self._publish(documents, found, asked)
                if root not in self._again:
                    return
        finally:
            self._running.discard(root)

    def _publish(self, documents: dict, found: dict[str, list[Finding]], asked: set[str]) -> None:
        """Send the diagnostics of each document that asked for the run, and of
        every other whose diagnostics changed."""
        lines = {path: text.splitlines(keepends=True) for path, (_, _, text) in documents.items()}

        def lines_of(path: str) -> list[str]:
            if path not in lines:
                try:
                    lines[path] = read_source(path).splitlines(keepends=True)
                except SourceError:
                    lines[path] = []
            return lines[path]

        codec = self.workspace.position_codec
        still_open = {document.uri for document in self.workspace.text_documents.values()}
        for path, (uri, version, _) in documents.items():
            if uri not in still_open:  # closed during the run: its diagnostics are withdrawn already
                continue
            ranges = Ranges("".join(lines[path]))
            pairs = tuple(
                (finding, diagnostic(finding, lines[path], codec, lines_of, ranges)) for finding in found.get(path, [])
            )
            last = self.published.get(uri)
            if uri not in asked and last is not None and [d for _, d in last.diagnostics] == [d for _, d in pairs]:
                continue
            self.published[uri] = _Published(version, pairs)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[d for _, d in pairs])
            )

    def forget(self, uri: str) -> None:
        """A closed document's diagnostics are withdrawn."""
        if self.published.pop(uri, None) is not None:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def finding_of(self, uri: str, version: int | None, sent: types.Diagnostic) -> Finding | None:
        """The finding a diagnostic the client sends back was published for, while the document is unchanged."""
        last = self.published.get(uri)
        if last is None or last.version != version:
            return None
        return next(
            (finding for finding, ours in last.diagnostics if (ours.code, ours.range) == (sent.code, sent.range)), None
        )

    def stop_runs(self) -> None:
        """No more runs: the pending ones cancelled, the worker processes ended."""
        for pending in self._timers.values():
            pending.cancel()
        self._timers.clear()
        self._worker.shutdown(wait=False, cancel_futures=True)
        self.session.close()


def _path_of(uri: str, language_id: str | None = None) -> str | None:
    """The file a Python document is, or None (an unsaved buffer, another language)."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if path is None or not (path.endswith(_PYTHON_SUFFIXES) or language_id == "python"):
        return None
    return os.path.abspath(path)


def build_server() -> JaxcheckServer:
    server = JaxcheckServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: JaxcheckServer, params: types.InitializeParams) -> None:
        # Messages name other files relative to the working folder: the workspace's, as on its command line.
        folders = params.workspace_folders or []
        root = to_fs_path(folders[0].uri) if folders else (
            to_fs_path(params.root_uri) if params.root_uri else params.root_path
        )
        if root and os.path.isdir(root):
            os.chdir(root)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxcheckServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxcheckServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: JaxcheckServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxcheckServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)
        # The saved text counts again for the project's other open documents.
        ls.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def code_action(ls: JaxcheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        actions = []
        for sent in params.context.diagnostics:
            if sent.source == SOURCE:
                actions += actions_for(document, sent, ls.finding_of(document.uri, document.version, sent))
        return actions

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: JaxcheckServer, params: None) -> None:
        ls.stop_runs()

    return server
