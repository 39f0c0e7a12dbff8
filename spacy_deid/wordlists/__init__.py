"""Vocabularies as data: the word lists the recognition steps read (kinship words, titles, ...), from
editable JSON files (`resources/word_lists/`), read over by `deid.initialize(word_lists=PATH)`, saved
with the pipeline (`deid/word_lists/*.json`) and in force while its `deid` component runs (`active.py`)."""
from .active import active_word_lists, compiled, current_word_lists, in_force, word_set, words
from .store import (WordListError, WordListFile, WordLists, default_word_lists, read_json_files, read_word_list_files,
                    sorted_longest_first, write_json_folder)

__all__ = ["active_word_lists", "compiled", "current_word_lists", "in_force", "word_set", "words", "WordListError", "WordListFile",
           "WordLists", "default_word_lists", "read_json_files", "read_word_list_files", "sorted_longest_first",
           "write_json_folder"]
