"""Reporters: findings to text (flake8's format), JSON (SPEC 4), SARIF 2.1.0
(GitHub code scanning and other CI dashboards) or GitHub workflow commands.

Every message ends with its rule's name, `[mutable-static]`, which
`jaxcheck rule` takes as well as the code.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from urllib.parse import quote
from typing import Iterable, TextIO

from jaxcheck import __version__
from jaxcheck.findings import Finding
from jaxcheck.rules import CODES

REPOSITORY = "https://github.com/jaxcheck/jaxcheck"
PAGE_URL = REPOSITORY + "/blob/main/rules/{code}.md"


def message_of(finding: Finding) -> str:
    """The message on one line: what is wrong and where it became static, the
    fix, and the rule's name (`jaxcheck rule` takes it, for the why)."""
    name = CODES.get(finding.code, ("",))[0]
    text = f"{finding.message}. {finding.fix}." if finding.fix else finding.message
    return f"{text} [{name}]" if name else text


def write_text(findings: Iterable[Finding], out: TextIO) -> None:
    for finding in findings:
        out.write(f"{finding.path}:{finding.line}:{finding.column}: {finding.code} {message_of(finding)}\n")


def write_json(findings: Iterable[Finding], out: TextIO) -> None:
    records = [
        {
            "path": finding.path,
            "line": finding.line,
            "column": finding.column,
            "code": finding.code,
            "message": message_of(finding),
        }
        for finding in findings
    ]
    json.dump(records, out, indent=2)
    out.write("\n")


def write_github(findings: Iterable[Finding], out: TextIO) -> None:
    """GitHub Actions workflow commands: each finding becomes an annotation on its line."""
    for finding in findings:
        properties = {
            "file": finding.path,
            "line": finding.line,
            "col": finding.column,
            "title": f"{finding.code} {CODES.get(finding.code, ('',))[0]}".strip(),
        }
        joined = ",".join(f"{key}={_escape(str(value), True)}" for key, value in properties.items())
        out.write(f"::error {joined}::{_escape(message_of(finding), False)}\n")


def _escape(text: str, in_property: bool) -> str:
    """As the workflow-command parser unescapes it (actions/toolkit's `escapeData`/`escapeProperty`)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if in_property else text


def write_sarif(findings: Iterable[Finding], out: TextIO) -> None:
    """One SARIF 2.1.0 run: every rule with its page as help, and every finding."""
    from jaxcheck.report.pages import rule_page

    codes = list(CODES)
    rules = []
    for code, (name, summary) in CODES.items():
        page = rule_page(code) or summary
        rules.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in name.split("-")),
                "shortDescription": {"text": summary},
                "fullDescription": {"text": summary},
                "helpUri": PAGE_URL.format(code=code),
                "help": {"text": page, "markdown": page},
                "defaultConfiguration": {"level": "error"},
                "properties": {"tags": ["jax", name]},
            }
        )
    results = [
        {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code) if finding.code in CODES else -1,
            "level": "error",
            "message": {"text": message_of(finding)},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(finding.path)},
                        "region": {"startLine": finding.line, "startColumn": finding.column},
                    }
                }
            ],
        }
        for finding in findings
    ]
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jaxcheck",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": REPOSITORY,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    json.dump(document, out, indent=2)
    out.write("\n")


def _uri(path: str) -> str:
    """A relative URI reference, as code scanning matches it to the repository's files."""
    if os.path.isabs(path):
        return Path(path).as_uri()
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return quote(path)


def write_statistics(findings: Iterable[Finding], out: TextIO) -> None:
    """flake8's `--statistics`: how many findings per code, with the rule's name."""
    counts = Counter(finding.code for finding in findings)
    for code in sorted(counts):
        out.write(f"{counts[code]:<5} {code} {CODES.get(code, ('',))[0]}\n")


REPORTERS = {"text": write_text, "json": write_json, "sarif": write_sarif, "github": write_github}
