"""Bad input: each problem is a CorpusError naming the record and line (never the text), and in
collecting mode the other records are still read."""
import json
from pathlib import Path

import pytest

from spacy_deid.corpus import (CorpusError, Record, load_label_map, parse_inline, read_brat, read_conll,
                               read_corpus, read_docbin, read_i2b2, read_jsonl, write_brat, write_conll,
                               write_i2b2)

from linear import assert_linear

SECRET = "王秘密"  # PHI that must never appear in an error message


def _line(rid, text, spans):
    return json.dumps({"id": rid, "text": text, "spans": spans}, ensure_ascii=False).encode("utf-8")


GOOD_A = _line("a", f"病人{SECRET}入院", [{"start": 2, "end": 5, "label": "PATIENT", "text": SECRET}])
GOOD_Z = _line("z", "no PHI here", [])
BAD_JSONL = {
    "broken-json": (b'{"id": "b", "text": "' + SECRET.encode() + b'", "spans": [', "invalid JSON", None),
    "invalid-utf8": (b'{"id": "b", "text": "\xff\xfe ' + SECRET.encode() + b'", "spans": []}', "invalid UTF-8", None),
    "offset-mismatch": (_line("b", f"x {SECRET}", [{"start": 0, "end": 3, "label": "PATIENT", "text": SECRET}]),
                        "does not match", "b"),
    "offset-outside": (_line("b", SECRET, [{"start": 1, "end": 9, "label": "PATIENT", "text": SECRET}]),
                       "outside the text", "b"),
    "unknown-label": (_line("b", SECRET, [{"start": 0, "end": 3, "label": "PATEINT", "text": SECRET}]),
                      "unknown label 'PATEINT'", "b"),
    "missing-text": (json.dumps({"id": "b", "spans": []}).encode(), "no 'text'", "b"),
    "not-an-object": (b'["b", "' + SECRET.encode() + b'"]', "not a JSON object", None),
    "impossible-date-norm": (_line("b", "回診 110.02.30", [{"start": 3, "end": 12, "label": "DATE", "text": "110.02.30",
                                                       "norm": "2021-02-30"}]), "not a valid calendar date", "b"),
    "malformed-date-norm": (_line("b", "回診 110.03.02", [{"start": 3, "end": 12, "label": "DATE", "text": "110.03.02",
                                                      "norm": "110/03/02"}]), "not a date value", "b"),
    "malformed-span": (_line("b", SECRET, [{"start": "x", "end": 3, "label": "PATIENT", "text": SECRET}]),
                       "malformed span", "b"),
}


@pytest.mark.parametrize("case", sorted(BAD_JSONL))
def test_jsonl_bad_line_collected_and_others_read(case, tmp_path):
    raw, message, rid = BAD_JSONL[case]
    path = tmp_path / "c.jsonl"
    path.write_bytes(b"\n".join([GOOD_A, raw, b"", GOOD_Z]) + b"\n")
    errors = []
    records = list(read_jsonl(path, errors=errors))
    assert [r.id for r in records] == ["a", "z"]
    [err] = errors
    assert message in str(err) and err.line == 2 and "line 2" in str(err)
    assert err.record_id == rid
    assert SECRET not in str(err)
    with pytest.raises(CorpusError, match=message):
        list(read_jsonl(path))  # strict mode stops at the bad line


def test_jsonl_strict_mode_yields_records_before_the_bad_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(GOOD_A + b"\n{oops\n" + GOOD_Z + b"\n")
    seen = []
    with pytest.raises(CorpusError):
        for record in read_jsonl(path):
            seen.append(record.id)
    assert seen == ["a"]


def test_label_map_unmapped_label_is_an_error_naming_it(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(_line("q", SECRET, [{"start": 0, "end": 3, "label": "PTNameX", "text": SECRET}]) + b"\n")
    errors = []
    assert list(read_jsonl(path, errors=errors, label_map=load_label_map("physionet_deid"))) == []
    assert "PTNameX" in str(errors[0]) and errors[0].record_id == "q" and SECRET not in str(errors[0])


def _brat_folder(tmp_path: Path, ann_lines):
    good = parse_inline(f"病人«{SECRET}|PATIENT»", record_id="good")
    write_brat([good, Record(id="bad", text=f"病人{SECRET}")], tmp_path)
    (tmp_path / "bad.ann").write_text("\n".join(ann_lines) + "\n", encoding="utf-8")
    return tmp_path


BAD_ANN = {
    "too-few-fields": (["T1\tPATIENT 2 5"], 1, "3 tab-separated"),
    "bad-offsets": (["T1\tPATIENT two five\t" + SECRET], 1, "malformed"),
    "text-mismatch": (["T1\tPATIENT 0 3\t" + SECRET], 1, "does not match"),
    "outside": (["#1\tAnnotatorNotes T1\tx", "T1\tPATIENT 2 50\t" + SECRET], 2, "outside the text"),
    "unknown-line": (["X1\tsomething"], 1, "unknown annotation line"),
    "unknown-label": (["T1\tPATEINT 2 5\t" + SECRET], None, "unknown label"),
}


@pytest.mark.parametrize("case", sorted(BAD_ANN))
def test_brat_malformed_ann(case, tmp_path):
    lines, line, message = BAD_ANN[case]
    folder = _brat_folder(tmp_path, lines)
    errors = []
    assert [r.id for r in read_brat(folder, errors=errors)] == ["good"]
    [err] = errors
    assert message in str(err) and err.record_id == "bad" and err.line == line
    assert SECRET not in str(err)


def test_brat_missing_ann(tmp_path):
    folder = _brat_folder(tmp_path, [])
    (folder / "bad.ann").unlink()
    errors = []
    assert [r.id for r in read_brat(folder, errors=errors)] == ["good"]
    assert "missing file bad.ann" in str(errors[0])


BAD_XML = {
    "malformed": ("<deIdi2b2><TEXT>" + SECRET + "</TEXT><TAGS><NAME start='0'></TAGS>", "malformed XML"),
    "no-text": ("<deIdi2b2><TAGS/></deIdi2b2>", "no <TEXT>"),
    "bad-offsets": ("<deIdi2b2><TEXT>" + SECRET + "</TEXT><TAGS><NAME start='a' end='3' TYPE='PATIENT'/></TAGS></deIdi2b2>",
                    "no integer start/end"),
    "text-mismatch": ("<deIdi2b2><TEXT>" + SECRET + "</TEXT><TAGS><NAME start='0' end='2' text='" + SECRET +
                      "' TYPE='PATIENT'/></TAGS></deIdi2b2>", "does not match"),
    "entity-bomb": ('<!DOCTYPE x [<!ENTITY a "aaaa">]><deIdi2b2><TEXT>&a;</TEXT></deIdi2b2>', "DOCTYPE"),
}


@pytest.mark.parametrize("case", sorted(BAD_XML))
def test_i2b2_bad_file_collected(case, tmp_path):
    write_i2b2([parse_inline(f"«{SECRET}|PATIENT»", record_id="100-01")], tmp_path)
    (tmp_path / "100-02.xml").write_text(BAD_XML[case][0], encoding="utf-8")
    errors = []
    assert [r.id for r in read_i2b2(tmp_path, errors=errors)] == ["100-01"]
    [err] = errors
    assert BAD_XML[case][1] in str(err) and err.record_id == "100-02" and SECRET not in str(err)


def test_conll_bad_tag_costs_its_document_only(tmp_path):
    path = tmp_path / "c.conll"
    write_conll([parse_inline(f"«{SECRET}|PATIENT» ok", record_id=i) for i in ("d1", "d2", "d3")], path)
    lines = path.read_text("utf-8").splitlines()
    bad_at = lines.index("# id = d2") + 1
    lines[bad_at] = lines[bad_at].replace("B-PATIENT", "X_PATIENT")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = []
    assert [r.id for r in read_conll(path, errors=errors)] == ["d1", "d3"]
    [err] = errors
    assert err.record_id == "d2" and err.line == bad_at + 1 and "tag is not" in str(err)
    assert SECRET not in str(err)


def test_conll_invalid_utf8(tmp_path):
    path = tmp_path / "c.conll"
    path.write_bytes(b"# id = d1\nok\tO\t_\n\n# id = d2\n\xff\xfe\tO\t_\n\n# id = d3\nfine\tO\t_\n")
    errors = []
    assert [r.id for r in read_conll(path, errors=errors)] == ["d1", "d3"]
    assert errors[0].record_id == "d2" and errors[0].line == 5


def test_docbin_garbage(tmp_path):
    path = tmp_path / "x.spacy"
    path.write_bytes(b"not a docbin at all")
    with pytest.raises(CorpusError, match="not a readable DocBin"):
        list(read_docbin(path))
    errors = []
    assert list(read_docbin(path, errors=errors)) == [] and len(errors) == 1


@pytest.mark.parametrize("fmt", ["jsonl", "conll"])
def test_long_adversarial_lines_read_quickly(fmt, tmp_path):
    from spacy_deid.corpus import write_corpus

    def make(n: int) -> str:
        return "A" * (2 * n) + " " + "9" * (2 * n) + " " + "台" * n

    def round_trip(n: int) -> str:
        path = tmp_path / f"x{n}.{fmt}"
        write_corpus([Record(id="long", text=make(n))], path, fmt)
        [back] = read_corpus(path, fmt)
        return back.text

    assert_linear(round_trip, 50_000)
    assert round_trip(50_000) == make(50_000)
