"""How long `jaxcheck server` takes to answer an edit, on a real project.

Copies an installed package (none of it ours) into a temporary folder with a
`pyproject.toml` at its root, so that the copy is one project (its cache in a
temporary folder of its own, `JAXCHECK_CACHE_DIR`), then drives `python -m jaxcheck server` over standard input and
output with pygls's language client:

- cold open: a first server on the fresh copy (no cache) opens one module;
  the time from `didOpen` to its first `publishDiagnostics`;
- warm open: a second server opens the same module, the on-disk cache filled;
- warm edits: that server gets `--edits` changes of the open module, one at a
  time (a line added at its end, each one different), and each is timed from
  `didChange` to the diagnostics of that version. The time includes the
  server's debounce, printed beside it.

    python bench/server_latency.py [--package netket] [--module netket/vqs/mc/mc_state/state.py] [--edits 10]
    python bench/server_latency.py --from /path/to/site-packages/optax --module optax/_src/alias.py
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from jaxcheck.server.protocol import DEBOUNCE

WAIT = 600  # seconds: the cold open of a large project parses all of it


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("jaxcheck-bench", "0")
        self.arrived: dict[tuple[str, int | None], float] = {}  # (uri, version) -> when its diagnostics came
        self.changed = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(client: Client, params: types.PublishDiagnosticsParams) -> None:
            client.arrived.setdefault((params.uri, params.version), time.perf_counter())
            client.changed.set()

    async def diagnostics_of(self, uri: str, version: int) -> float:
        while (uri, version) not in self.arrived:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), WAIT)
        return self.arrived[(uri, version)]


async def start(root: str) -> Client:
    client = Client()
    await client.start_io(sys.executable, "-m", "jaxcheck", "server", cwd=root)
    await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=from_fs_path(root))
    )
    client.initialized(types.InitializedParams())
    return client


async def stop(client: Client) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


async def open_module(client: Client, path: str, text: str) -> float:
    """Seconds from `didOpen` to the module's first diagnostics."""
    uri = from_fs_path(path)
    began = time.perf_counter()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    return await client.diagnostics_of(uri, 1) - began


async def edit(client: Client, path: str, text: str, edits: int) -> list[float]:
    """Seconds from each `didChange` to the diagnostics of its version."""
    uri = from_fs_path(path)
    lines = text.count("\n") + (not text.endswith("\n"))
    seconds = []
    for number in range(edits):
        version = 2 + number
        at = types.Position(line=lines + number, character=0)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=at, end=at), text=f"_bench_edit_{number} = {number}\n"
        )
        began = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]
            )
        )
        seconds.append(await client.diagnostics_of(uri, version) - began)
    return seconds


async def measure(root: str, module: str, edits: int) -> tuple[float, float, list[float]]:
    path = os.path.join(root, module)
    text = Path(path).read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    client = await start(root)
    cold = await open_module(client, path, text)
    await stop(client)
    client = await start(root)
    warm = await open_module(client, path, text)
    changes = await edit(client, path, text, edits)
    await stop(client)
    return cold, warm, changes


def package_folder(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"bench: the package {name!r} is not installed in {sys.executable}; give its folder with --from")
    return list(spec.submodule_search_locations)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", default="netket", help="an installed package to copy (default: netket)")
    parser.add_argument("--from", dest="source", help="the package's folder, when it is not installed here")
    parser.add_argument("--module", default="netket/vqs/mc/mc_state/state.py", help="the module to open, in the copy")
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args()
    source = args.source or package_folder(args.package)
    with tempfile.TemporaryDirectory(prefix="jaxcheck-server-bench-") as folder, tempfile.TemporaryDirectory() as cache:
        os.environ["JAXCHECK_CACHE_DIR"] = cache  # the servers inherit it
        shutil.copytree(source, os.path.join(folder, os.path.basename(source.rstrip(os.sep))))
        Path(folder, "pyproject.toml").write_text('[project]\nname = "bench-copy"\nversion = "0"\n', encoding="utf-8")
        files = sum(name.endswith(".py") for _, _, names in os.walk(folder) for name in names)
        cold, warm, changes = asyncio.run(measure(folder, args.module, args.edits))
    print(f"project: a copy of {source} ({files} Python files); module opened: {args.module}")
    print(f"cold open (no cache), didOpen -> diagnostics:        {cold:7.2f} s")
    print(f"warm open (on-disk cache filled), didOpen -> diagnostics: {warm:7.2f} s")
    print(
        f"warm edits, didChange -> diagnostics ({len(changes)} edits, debounce {DEBOUNCE:.1f} s included): "
        f"median {statistics.median(changes):.2f} s, max {max(changes):.2f} s"
    )


if __name__ == "__main__":
    main()
