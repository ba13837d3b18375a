"""The facts cache gives back exactly the facts it was given, and nothing it did not sign."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxcheck import __version__
from jaxcheck import facts as f
from jaxcheck.extraction import facts_from_source
from jaxcheck.findings import Finding, Related
from jaxcheck.loading.cache import FORMAT, FactsCache, signed
from jaxcheck.loading.codec import decode, decode_finding, encode
from helpers import library_facts



def _through_json(value):
    """What the cache keeps: the encoded form written as JSON and read back."""
    return json.loads(json.dumps(encode(value), separators=(",", ":")))


@pytest.mark.parametrize("package", ["equinox", "optax", "flax", "jax"])
def test_the_facts_of_the_installed_libraries_come_back_equal(package: str) -> None:
    compared = 0
    for facts in library_facts(package):
        assert decode(_through_json(facts)) == facts, facts.path
        compared += 1
    assert compared > 20


LITERALS = "x = (b'\\x00', 2j, -1.5, (1, 'a', None), True, 10**30, 'é\\ud800', -0.0, 123456789012345678901234567890)\n"


def test_literals_json_cannot_hold_come_back_equal_and_of_their_type() -> None:
    facts = facts_from_source(LITERALS, "m.py", "m")
    back = decode(_through_json(facts))
    assert back == facts
    literals = [argument.literal for argument in back.bindings[0].value.args]
    assert [type(literal) for literal in literals] == [
        type(argument.literal) for argument in facts.bindings[0].value.args
    ]
    assert str(literals[7]) == "-0.0"


def test_a_shared_global_is_equal_to_a_fresh_one() -> None:
    # Plain globals come back shared between modules: frozen, they compare and hash as fresh ones.
    first = decode(_through_json(facts_from_source("import jax\nf = jax.jit(g)\n", "a.py", "a")))
    second = decode(_through_json(facts_from_source("import jax\nh = jax.jit(k)\n", "b.py", "b")))
    assert first.bindings[0].value.ref is second.bindings[0].value.ref
    assert first.bindings[0].value.ref == f.Ref("jax.jit") and hash(first.bindings[0].value.ref) == hash(f.Ref("jax.jit"))


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda raw: raw[:-1], id="a-field-missing"),
        pytest.param(lambda raw: [*raw, []], id="a-field-too-many"),
        pytest.param(lambda raw: [raw[0], raw[1], [["a"]], *raw[3:]], id="a-class-of-the-wrong-shape"),
        pytest.param(lambda raw: 3, id="not-a-list"),
    ],
)
def test_facts_of_another_shape_do_not_decode(spoil) -> None:
    facts = facts_from_source("import jax\n\nclass A:\n    x: int = 1\n\nf = jax.jit(g)\n", "m.py", "m")
    with pytest.raises((ValueError, TypeError)):
        decode(spoil(_through_json(facts)))


FINDING = Finding("a.py", 3, 5, "JAX101", "a message", about=("b.py",), related=(Related("b.py", 1, 1, "here"),))


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda raw: raw.__setitem__(1, "3"), id="line-a-string"),
        pytest.param(lambda raw: raw.__setitem__(5, [7]), id="about-not-paths"),
        pytest.param(lambda raw: raw[8][0].__setitem__(3, None), id="related-note-not-a-string"),
        pytest.param(lambda raw: raw.__setitem__(6, 0), id="strict-only-not-a-boolean"),
    ],
)
def test_findings_are_decoded_with_every_value_checked(spoil) -> None:
    raw = _through_json(FINDING)
    assert decode_finding(raw) == FINDING
    spoil(raw)
    with pytest.raises(TypeError):
        decode_finding(raw)


def _stored(tmp_path: Path) -> tuple[FactsCache, str, f.ModuleFacts]:
    cache = FactsCache(str(tmp_path / "cache"))
    facts = facts_from_source("import jax\nf = jax.jit(lambda x: x)\n", "m.py", "m")
    key = "ab" * 32
    cache.store(key, facts, True)
    return cache, key, facts


def test_a_stored_entry_loads_equal(tmp_path: Path) -> None:
    cache, key, facts = _stored(tmp_path)
    assert FactsCache(cache.folder).load(key) == (facts, True)


def test_an_entry_changed_after_signing_is_refused(tmp_path: Path) -> None:
    cache, key, _ = _stored(tmp_path)
    path = Path(cache.folder) / f"{key}.json"
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"m.py"', b'"n.py"'))
    assert FactsCache(cache.folder).load(key) is None


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda entry: {**entry, "format": FORMAT - 1}, id="an-older-format"),
        pytest.param(lambda entry: {**entry, "facts": entry["facts"][:-1]}, id="an-older-layout"),
        pytest.param(lambda entry: {**entry, "jaxcheck": "0.0.0"}, id="another-version"),
    ],
)
def test_a_signed_entry_of_another_format_is_refused(tmp_path: Path, change) -> None:
    cache, key, facts = _stored(tmp_path)
    path = Path(cache.folder) / f"{key}.json"
    entry = json.loads(path.read_bytes().partition(b"\n")[2])
    assert entry["format"] == FORMAT and entry["jaxcheck"] == __version__
    path.write_bytes(signed(json.dumps(change(entry)).encode()))
    assert FactsCache(cache.folder).load(key) is None
    cache.store(key, facts, False)  # and written over
    assert FactsCache(cache.folder).load(key) == (facts, False)
