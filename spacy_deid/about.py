__title__ = "spacy-deid"
__version__ = "0.1.0"
