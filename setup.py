"""Builds the compiled date scanner (`spacy_deid/dates/_scan.pyx`); everything else is in setup.cfg.

The extension is optional: where it cannot be built (no C compiler), the install goes on and
`spacy_deid.dates.finder` uses its pure-Python scan, which finds the same dates more slowly.
"""
from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # building without Cython (e.g. `--no-build-isolation` in a bare env): pure Python
    ext_modules = []
else:
    ext_modules = cythonize(
        [Extension("spacy_deid.dates._scan", ["spacy_deid/dates/_scan.pyx"], optional=True)],
        language_level=3, quiet=True)

setup(ext_modules=ext_modules)
