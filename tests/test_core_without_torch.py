"""The core (load the shipped pipeline, de-identify, batch API) must work where torch is not installed."""
import subprocess
import sys
import textwrap


def test_core_runs_with_torch_and_transformers_unimportable():
    script = textwrap.dedent('''
        import importlib.abc, sys

        BLOCKED = ("torch", "spacy_transformers", "transformers")

        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in BLOCKED:
                    raise ImportError("blocked: " + name)
                return None

        sys.meta_path.insert(0, Block())
        # As if the [transformers] extra were not installed: no spacy-transformers entry points either.
        import catalogue, importlib.metadata as md
        def kept(entry_point):
            return entry_point.value.split(":")[0].split(".")[0] not in BLOCKED

        eps = catalogue.AVAILABLE_ENTRY_POINTS
        if hasattr(eps, "select") and hasattr(md, "EntryPoints"):  # Python 3.10+
            flat = [e for group in eps.values() for e in group] if isinstance(eps, dict) else list(eps)
            catalogue.AVAILABLE_ENTRY_POINTS = md.EntryPoints(e for e in flat if kept(e))
        else:  # Python 3.9: a dict of group -> entry points
            catalogue.AVAILABLE_ENTRY_POINTS = {g: [e for e in group if kept(e)] for g, group in eps.items()}
        import spacy_deid
        nlp = spacy_deid.load()
        nlp.get_pipe("deid").surrogates.set_key(b"not-a-secret-test-key-0123456789")
        doc = nlp("Dr. 張家明 saw the patient on 110.03.02, phone 0912-345-678.")
        assert "110.03.02" not in doc._.deid_text and "0912-345-678" not in doc._.deid_text
        loaded = [m for m in sys.modules if m.split(".")[0] in BLOCKED]
        assert not loaded, loaded
        print("ok")
    ''')
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")
