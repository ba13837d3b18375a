"""Code actions for jaxcheck's diagnostics: silence one with `# noqa`."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument

from jaxcheck.findings import BAD_INPUT, Finding
from jaxcheck.report.noqa import with_noqa


def actions_for(document: TextDocument, diagnostic: types.Diagnostic, finding: Finding | None) -> list[types.CodeAction]:
    """Every action offered for one diagnostic of ours. `finding` is the one
    it was published for, when the document has not changed since (None
    otherwise): an action that rewrites code needs it, `# noqa` does not."""
    actions = []
    noqa = noqa_action(document, diagnostic)
    if noqa is not None:
        actions.append(noqa)
    return actions


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
