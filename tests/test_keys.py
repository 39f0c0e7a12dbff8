"""Keys (issue 47, point 7): weak and public keys refused; a literal key never saved; field pseudonyms."""
import os

import pytest
import spacy
from typer.testing import CliRunner

import spacy_deid
from spacy_deid.cli import app
from spacy_deid.surrogates.keys import (DEMO_KEY, InvalidKeyError, check_key, pseudonymize_field,
                                        resolve_key)

from test_cli_run import SAMPLE, read_jsonl

GOOD = "a-test-key-that-is-long-enough-1234"


@pytest.fixture(autouse=True)
def no_key_in_env(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)


@pytest.mark.parametrize("weak", ["aaaaaaaaaaaaaaaa", " " * 16, "abababababababababab", "0123456789a0123456789a"])
def test_keys_with_few_distinct_bytes_are_refused(weak):
    with pytest.raises(InvalidKeyError, match="distinct bytes"):
        resolve_key(weak)
    assert weak not in str(pytest.raises(InvalidKeyError, resolve_key, weak).value)  # never echoed


def test_the_demo_key_is_refused_unless_asked_for(monkeypatch):
    monkeypatch.setenv("SPACY_DEID_KEY", DEMO_KEY.decode())
    with pytest.raises(InvalidKeyError, match="public demo key"):
        resolve_key(None)
    assert resolve_key(None, demo_key=True) == DEMO_KEY
    check_key(GOOD.encode())  # a proper key passes


@pytest.mark.parametrize("key", ["aaaaaaaaaaaaaaaa", " " * 16, DEMO_KEY.decode()])
def test_run_refuses_weak_and_public_keys(tmp_path, key):
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["run", str(SAMPLE), str(out), "--key", key, "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "key" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_run_with_demo_key_flag_still_works(tmp_path):
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["run", str(SAMPLE), str(out), "--demo-key", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert len(read_jsonl(out)) == 6


@pytest.mark.parametrize("factory", ["deid", "deid_surrogates"])
def test_a_literal_key_in_the_config_is_never_saved(tmp_path, factory):
    nlp = spacy_deid.blank()
    with pytest.warns(UserWarning):
        nlp.add_pipe(factory, config={"key": GOOD})
    with pytest.raises(InvalidKeyError, match="literal key"):
        nlp.to_disk(tmp_path / "pipe")
    saved = [p for p in (tmp_path / "pipe").rglob("*") if p.is_file()] if (tmp_path / "pipe").exists() else []
    assert all(GOOD.encode() not in p.read_bytes() for p in saved)
    assert not (tmp_path / "pipe" / "config.cfg").exists()
    with pytest.raises(InvalidKeyError, match="literal key"):
        nlp.to_bytes()


def test_a_key_reference_in_the_config_is_saved(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_KEY", GOOD)
    nlp = spacy_deid.blank()
    nlp.add_pipe("deid", config={"key": "env:MY_KEY"})
    nlp.to_disk(tmp_path / "pipe")
    loaded = spacy.load(tmp_path / "pipe")
    assert loaded.config["components"]["deid"]["key"] == "env:MY_KEY"
    assert loaded("Tel 0912-345-678")._.deid_text != "Tel 0912-345-678"


def test_field_pseudonyms_are_keyed_stable_and_per_field():
    key, other = GOOD.encode(), b"another-key-9876543210fedcba"
    a = pseudonymize_field(key, "id", "7730418-20210302")
    assert a == pseudonymize_field(key, "id", "7730418-20210302")  # stable
    assert len(a) == 20 and "7730418" not in a
    assert a != pseudonymize_field(other, "id", "7730418-20210302")  # keyed
    assert a != pseudonymize_field(key, "patient_id", "7730418-20210302")  # per field
    assert pseudonymize_field(key, "id", 7) == pseudonymize_field(key, "id", 7) != pseudonymize_field(key, "id", "7 ")
    assert pseudonymize_field(key, "id", "bad\udc00")  # a lone surrogate still gets a pseudonym


def test_a_key_given_to_run_does_not_stay_in_the_environment(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from spacy_deid.cli import app

    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"id": "1", "text": "Dr. 張家明 saw him."}\n', encoding="utf8")
    result = CliRunner().invoke(app, ["run", str(notes), str(tmp_path / "out.jsonl"), "--model", "rules",
                                      "--key", "a" * 16])
    assert result.exit_code == 2  # a weak key is refused
    assert "SPACY_DEID_KEY" not in os.environ
