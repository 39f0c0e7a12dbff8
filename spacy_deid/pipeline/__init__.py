"""The `deid` component: one line adds rules, dates, merging and surrogates to any pipeline."""
from .deid import Deid, make_deid

__all__ = ["Deid", "make_deid"]
