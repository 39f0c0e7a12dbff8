"""Builds the compiled date pass; everything else is in setup.cfg.

- `spacy_deid/dates/_scan.pyx` (C): the date scanner, twin of `finder._scan`.
- `spacy_deid/dates/_entcolumns.pyx` (C++, against spaCy's `.pxd` declarations and numpy's headers, as
  spaCy's own compiled components are): the token write path, twin of `entcolumns.py`.

Both are optional: where one cannot be built (no C/C++ compiler), the install goes on and the
pure-Python code it twins does the same work more slowly.
"""
from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # building without Cython (e.g. `--no-build-isolation` in a bare env): pure Python
    ext_modules = []
else:
    extensions = [Extension("spacy_deid.dates._scan", ["spacy_deid/dates/_scan.pyx"], optional=True)]
    try:
        import numpy
        import spacy  # noqa: F401  (its .pxd files are what _entcolumns is compiled against)
    except ImportError:  # no spaCy/numpy in the build env: the Python write path
        pass
    else:
        extensions.append(Extension("spacy_deid.dates._entcolumns", ["spacy_deid/dates/_entcolumns.pyx"],
                                    language="c++", include_dirs=[numpy.get_include()], optional=True))
    ext_modules = cythonize(extensions, language_level=3, quiet=True)

setup(ext_modules=ext_modules)
