"""Code actions for jaxcheck's diagnostics: apply its fix, or silence it with `# noqa`."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument

from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.fixes import fix_for, fix_source
from jaxcheck.report.noqa import with_noqa


def actions_for(document: TextDocument, diagnostic: types.Diagnostic, finding: Finding | None) -> list[types.CodeAction]:
    """Every action offered for one diagnostic of ours. `finding` is the one
    it was published for, when the document has not changed since (None
    otherwise): an action that rewrites code needs it, `# noqa` does not."""
    actions = []
    fix = fix_action(document, diagnostic, finding) if finding is not None else None
    if fix is not None:
        actions.append(fix)
    noqa = noqa_action(document, diagnostic)
    if noqa is not None:
        actions.append(noqa)
    return actions


def fix_action(document: TextDocument, diagnostic: types.Diagnostic, finding: Finding) -> types.CodeAction | None:
    """The finding's fix on the document's text, as the lines it changes;
    an unsafe fix is offered too (the editor's user chooses), and says so."""
    kind = fix_for(finding, document.source)
    if kind is None:
        return None
    fixed = fix_source(document.source, [finding], unsafe=not kind.safe)
    if not fixed.applied:
        return None
    old, new = document.source.splitlines(keepends=True), fixed.text.splitlines(keepends=True)
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    edit = types.TextEdit(
        range=types.Range(start=types.Position(line=start, character=0), end=types.Position(line=len(old) - end, character=0)),
        new_text="".join(new[start : len(new) - end]),
    )
    return types.CodeAction(
        title=kind.title if kind.safe else f"{kind.title} (unsafe: it may change what the program computes)",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=kind.safe,
        edit=types.WorkspaceEdit(changes={document.uri: [edit]}),
    )


def noqa_action(document: TextDocument, diagnostic: types.Diagnostic) -> types.CodeAction | None:
    """Add the diagnostic's code to its line's `# noqa` comment, or give the
    line one; None when the line already silences it (JAX000 cannot be)."""
    code = diagnostic.code
    line = diagnostic.range.start.line
    if not isinstance(code, str) or code == BAD_INPUT or line >= len(document.lines):
        return None
    old = document.lines[line].rstrip("\r\n")
    new = with_noqa(code, old)
    if new is None:
        return None
    same = 0  # the edit replaces what differs: the end of the line, or the noqa's codes onwards
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    codec = document.position_codec
    edit = types.TextEdit(
        range=types.Range(
            start=types.Position(line=line, character=codec.client_num_units(old[:same])),
            end=types.Position(line=line, character=codec.client_num_units(old)),
        ),
        new_text=new[same:],
    )
    return types.CodeAction(
        title=f"Add `# noqa: {code}` to this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={document.uri: [edit]}),
    )
