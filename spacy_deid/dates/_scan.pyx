# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled twin of `finder._scan`: the same candidates, found without the interpreter.

WHY: the date pass must cost at most half of tokenizing, and in Python the per-number work (the
prefilter's dispatch, matching a shape, reading its fields, building the format string) is most of
that cost. This module does the same steps on the characters directly. It is a port, not a second
grammar: the shapes it does not match itself (the 年/月 and English month-name shapes) are matched
with `finder.SHAPES`, and the context vetoes are `finder`'s own functions. `finder._scan` stays the
reference and the fallback where no compiler was available; `tests/test_dates_compiled.py` checks
that both give identical candidates on every input of the date tests and on generated text.

Each matcher below follows its regex in `finder.SHAPES` (named in its docstring), including where
the regex would backtrack.
"""

cdef enum Shape:
    NUMERIC = 0
    COMPACT_MK = 1
    COMPACT = 2
    ZH_YEAR = 3
    ZH_PREFIXED = 4
    ZH_MONTH = 5
    EN_MDY = 6
    EN_DMY = 7
    EN_YMD = 8
    EN_MY = 9
    EN_DASH = 10
    EN_YDASH = 11
    BARE_YEAR = 12
    APOSTROPHE_YEAR = 13

SHAPE_NAMES = ("numeric", "compact_mk", "compact", "zh_year", "zh_prefixed", "zh_month", "en_mdy",
               "en_dmy", "en_ymd", "en_my", "en_dash", "en_ydash", "bare_year", "apostrophe_year")
cdef enum:
    N_SHAPES = 14
    MINGUO_OFFSET = 1911

cdef object _regexes = None          # finder.SHAPES by shape id (the shapes matched by regex)
cdef object _year_cue = None         # finder._YEAR_CUE.search
cdef object _id_veto = None          # finder._ID_VETO.search
cdef object _left_veto = None        # finder._LEFT_VETO_REVERSED.match
cdef object _right_veto = None       # finder._RIGHT_UNIT_VETO.match
cdef object _full_date = None        # finder.FULL_NUMERIC_DATE.fullmatch
cdef str _left_veto_last = ""        # finder.LEFT_VETO_LAST_CHARS
cdef str _left_strip = ""            # finder._LEFT_STRIP
cdef object _fraction_vetoed = None  # finder._fraction_vetoed
cdef object _clock_time = None       # nondates.clock_time
cdef object _parse_numeral = None    # numerals.parse_numeral (Chinese numerals)
cdef object _preference_key = None   # finder._preference_key
cdef object _month_field = None      # finder.month_field
cdef object _LOWERCASE_WORDS = None  # finder._LOWERCASE_WORDS
cdef int _CACHE_SIZE = 50000

cdef int[13] _DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def bind(shapes, vetoes, str left_veto_last, str left_strip, fraction_vetoed, clock_time, month_field,
         lowercase_words, parse_numeral, preference_key, int cache_size) -> None:
    """Called once by `finder` when it imports this module: the pieces shared with the reference.
    vetoes: finder's (_YEAR_CUE, _ID_VETO, _LEFT_VETO_REVERSED, _RIGHT_UNIT_VETO, FULL_NUMERIC_DATE)."""
    global _regexes, _year_cue, _id_veto, _left_veto, _right_veto, _full_date, _fraction_vetoed, _parse_numeral
    global _clock_time
    global _preference_key, _CACHE_SIZE, _left_veto_last, _left_strip, _month_field, _LOWERCASE_WORDS
    _month_field = month_field
    _LOWERCASE_WORDS = lowercase_words
    _left_veto_last = left_veto_last
    _left_strip = left_strip
    _preference_key = preference_key
    _regexes = tuple(shapes[name] for name in SHAPE_NAMES)
    _year_cue, _id_veto, _left_veto, _right_veto = (vetoes[0].search, vetoes[1].search, vetoes[2].match,
                                                    vetoes[3].match)
    _full_date = vetoes[4].fullmatch
    _fraction_vetoed = fraction_vetoed
    _clock_time = clock_time
    _parse_numeral = parse_numeral
    _CACHE_SIZE = cache_size


# -- characters --------------------------------------------------------------------------------
cdef inline bint _digit(Py_UCS4 c):
    return 48 <= c <= 57


cdef inline bint _alpha(Py_UCS4 c):
    return 65 <= c <= 90 or 97 <= c <= 122


cdef inline bint _word(Py_UCS4 c):
    return _digit(c) or _alpha(c) or c == 95


cdef inline bint _zh_numeral(Py_UCS4 c):
    return c in u"〇零○一二三四五六七八九十百千兩"


cdef inline Py_UCS4 _lower(Py_UCS4 c):
    return <Py_UCS4>(<int>c + 32) if 65 <= c <= 90 else c


cdef inline Py_UCS4 _at(str t, Py_ssize_t i, Py_ssize_t n):
    """The character at i, or 0 outside the text (no character class holds 0)."""
    if i < 0 or i >= n:
        return 0
    return t[i]


cdef inline Py_ssize_t _run_end(str t, Py_ssize_t i, Py_ssize_t n):
    while i < n and _digit(t[i]):
        i += 1
    return i


cdef int _int(str t, Py_ssize_t start, Py_ssize_t end):
    cdef int v = 0
    cdef Py_ssize_t i
    for i in range(start, end):
        v = v * 10 + (<int>t[i] - 48)
    return v


cdef bint _three_letters_in(str t, Py_ssize_t i, Py_ssize_t n, str words):
    """Is t[i:i+3], ASCII lower-cased, one of the three-letter words packed in `words`?"""
    if i < 0 or i + 3 > n:
        return False
    cdef Py_UCS4 a = _lower(t[i]), b = _lower(t[i + 1]), c = _lower(t[i + 2])
    cdef Py_ssize_t k
    for k in range(0, len(words), 3):
        if words[k] == a and words[k + 1] == b and words[k + 2] == c:
            return True
    return False


# `finder._MONTH_END` (three letters that can end a month name) and the three that begin one.
cdef str _MONTH_ENDS = "janaryfebmarrchaprrilmayjununejululyaugustsepeptberoctnovdec"
cdef str _MONTH_STARTS = "janfebmaraprmayjunjulaugsepoctnovdec"


cdef inline bint _month_end(str t, Py_ssize_t i, Py_ssize_t n):
    return _three_letters_in(t, i, n, _MONTH_ENDS)


cdef inline bint _is_mk(str t, Py_ssize_t i, Py_ssize_t n):
    return i >= 0 and i + 2 <= n and (t[i] == u"m" or t[i] == u"M") and (t[i + 1] == u"k" or t[i + 1] == u"K")


cdef inline bint _is_minguo(str t, Py_ssize_t i, Py_ssize_t n):
    return i >= 0 and i + 2 <= n and t[i] == u"民" and t[i + 1] == u"國"


# -- the prefilter (`finder._ANCHOR`) ------------------------------------------------------------
cdef bint _anchor_after_word(str t, Py_ssize_t p, Py_ssize_t n):
    """The anchor's second branch: a number after a month name (`Dec 25`, `Aug. 2019`) or `mk`/`民國`."""
    cdef Py_UCS4 c1 = _at(t, p - 1, n), c2 = _at(t, p - 2, n)
    if c1 == u" " or c1 == u"-" or c1 == u".":
        if (c1 == u" " or c1 == u"-") and _month_end(t, p - 4, n):
            return True
        if c1 == u" " and (c2 == u"." or c2 == u",") and _month_end(t, p - 5, n):
            return True
        if c1 == u"." and _month_end(t, p - 4, n):
            return True
        if c1 == u" " and (_is_mk(t, p - 3, n) or _is_minguo(t, p - 3, n)):
            return True
        return False
    if c1 == u"k" or c1 == u"K" or c1 == u"國":
        return _is_mk(t, p - 2, n) or _is_minguo(t, p - 2, n)
    return False


cdef bint _letters3(str t, Py_ssize_t i, Py_ssize_t n):
    return i + 3 <= n and _alpha(t[i]) and _alpha(t[i + 1]) and _alpha(t[i + 2])


cdef bint _word_rest(str t, Py_ssize_t j, Py_ssize_t n):
    """`(?:of[ ])?[A-Za-z]{3}` at j."""
    if j + 3 <= n and t[j] == u"o" and t[j + 1] == u"f" and t[j + 2] == u" " and _letters3(t, j + 3, n):
        return True
    return _letters3(t, j, n)


cdef bint _word_follows(str t, Py_ssize_t q, Py_ssize_t n):
    """`(?=(?:st|nd|rd|th)?,?[ ]{1,2}(?:of[ ])?[A-Za-z]{3})` at q."""
    cdef Py_ssize_t i = q
    if _ordinal(t, q, n):
        i += 2
    if _at(t, i, n) == u",":
        i += 1
    if _at(t, i, n) != u" ":
        return False
    if _at(t, i + 1, n) == u" " and _word_rest(t, i + 2, n):
        return True
    return _word_rest(t, i + 1, n)


cdef inline bint _ordinal(str t, Py_ssize_t q, Py_ssize_t n):
    cdef Py_UCS4 a = _at(t, q, n), b = _at(t, q + 1, n)
    return ((a == u"s" and b == u"t") or (a == u"n" and b == u"d") or (a == u"r" and b == u"d")
            or (a == u"t" and b == u"h"))


cdef bint _unreadable(str t, Py_ssize_t p, Py_ssize_t q, Py_ssize_t n):
    """`_UNREADABLE_SEP` at q, the end of the digit run starting at p (the separator is at q)."""
    cdef Py_ssize_t run = q - p, e, r2
    cdef Py_UCS4 sep = t[q]
    cdef bint ahead = False
    if run < 3 and sep == u".":
        e = _run_end(t, q + 1, n)
        r2 = e - q - 1
        if 1 <= r2 <= 3 and not (_at(t, e, n) == u"." and _digit(_at(t, e + 1, n))):
            ahead = True
    if not ahead and _run_end(t, q + 1, n) - q - 1 >= 5:
        ahead = True
    if not ahead:
        return False
    if run <= 4 and _at(t, p - 1, n) == u" ":
        sep = _at(t, p - 2, n)
        if sep == u" " or sep == u"," or sep == u".":
            return False
    return True


cdef bint _anchor_digits(str t, Py_ssize_t p, Py_ssize_t q, Py_ssize_t n):
    """Is the digit run t[p:q] an anchor (the second or third branch of `_ANCHOR`)?"""
    if _anchor_after_word(t, p, n):
        return True
    cdef Py_UCS4 c = _at(t, q, n), c1 = _at(t, q + 1, n)
    cdef Py_ssize_t run = q - p
    if c == u"." or c == u"/" or c == u"-":
        if _alpha(c1):
            return True
        if _digit(c1) and not _unreadable(t, p, q, n):
            return True
    if c == u"年" or c == u"月" or (c == u" " and (c1 == u"年" or c1 == u"月")):
        return True
    if _word_follows(t, q, n):
        return True
    if run == 2 and p > 0 and (t[p - 1] == u"'" or t[p - 1] == u"’"):
        return True  # '87
    return run == 4 or run == 7 or run == 8


# -- which shapes to try at an anchor (`finder._shapes_at_anchor`) ----------------------------------
cdef Py_ssize_t _prefix_start(str t, Py_ssize_t a, Py_ssize_t n):
    """Start of a `民國 `, `民國`, `mk`, `MK`, `Mk`, `mK`, `mk ` or `MK ` right before a (in that order)."""
    if a < 2:
        return a
    cdef Py_UCS4 c1 = t[a - 1], c2 = t[a - 2]
    if not (c1 == u"k" or c1 == u"K" or c1 == u"國" or c1 == u" "):
        return a
    if c1 == u" " and not (c2 == u"k" or c2 == u"K" or c2 == u"國"):
        return a
    if a >= 3 and c1 == u" " and c2 == u"國" and t[a - 3] == u"民":
        return a - 3
    if c1 == u"國" and c2 == u"民":
        return a - 2
    if (c2 == u"m" or c2 == u"M") and (c1 == u"k" or c1 == u"K"):
        return a - 2
    if a >= 3 and c1 == u" " and ((c2 == u"k" and t[a - 3] == u"m") or (c2 == u"K" and t[a - 3] == u"M")):
        return a - 3
    return a


cdef int _shapes_at(str t, Py_ssize_t a, Py_ssize_t b, Py_ssize_t n, int* shapes, Py_ssize_t* starts):
    """The (shape, start) pairs to try for the anchor t[a:b], in `_shapes_at_anchor`'s order."""
    cdef int k = 0
    cdef Py_ssize_t j, pj, pa, kk, run, e
    cdef Py_UCS4 first = t[a], nxt, c
    cdef bint quoted
    if first == u"年" or first == u"月":
        j = a
        while j > 0:
            c = t[j - 1]
            if not (_zh_numeral(c) or c == u" "):
                break
            j -= 1
        while j < a and t[j] == u" ":
            j += 1
        if j == a or (j > 0 and t[j - 1].isdigit()):
            return 0
        if not t[j].isdigit():
            pj = _prefix_start(t, j, n)
            shapes[k] = ZH_YEAR; starts[k] = pj; k += 1
            shapes[k] = ZH_YEAR; starts[k] = j; k += 1
            shapes[k] = ZH_MONTH; starts[k] = j; k += 1
            if pj != j:
                shapes[k] = ZH_PREFIXED; starts[k] = pj; k += 1
        return k
    run = b - a
    quoted = a > 0 and (t[a - 1] == u"'" or t[a - 1] == u"’")  # `'87`, `Nov '18`
    nxt = _at(t, b, n)
    pa = _prefix_start(t, a, n)
    if pa != a:
        shapes[k] = NUMERIC; starts[k] = pa; k += 1
        shapes[k] = COMPACT_MK; starts[k] = pa; k += 1
        shapes[k] = ZH_YEAR; starts[k] = pa; k += 1
        shapes[k] = ZH_PREFIXED; starts[k] = pa; k += 1
    if nxt == u"." or nxt == u"/" or nxt == u"-":
        shapes[k] = NUMERIC; starts[k] = a; k += 1
        if run <= 2:
            shapes[k] = EN_DASH; starts[k] = a; k += 1
        elif run == 4:
            shapes[k] = EN_YDASH; starts[k] = a; k += 1
    elif nxt == u"年" or nxt == 0:
        shapes[k] = ZH_YEAR; starts[k] = a; k += 1
    elif nxt == u"月" or (nxt == u" " and _at(t, b + 1, n) == u"月"):
        shapes[k] = ZH_MONTH; starts[k] = a; k += 1
    elif nxt == u" " or _ordinal(t, b, n):
        if run <= 2:
            shapes[k] = EN_DMY; starts[k] = a; k += 1
            shapes[k] = EN_DASH; starts[k] = a; k += 1
        elif run == 4:
            shapes[k] = EN_YMD; starts[k] = a; k += 1
    if nxt == u" " and _at(t, b + 1, n) == u"年":
        shapes[k] = ZH_YEAR; starts[k] = a; k += 1
    if run == 7 or run == 8:
        shapes[k] = COMPACT; starts[k] = a; k += 1
    elif run == 4:
        shapes[k] = BARE_YEAR; starts[k] = a; k += 1
    elif run == 2 and quoted:
        shapes[k] = APOSTROPHE_YEAR; starts[k] = a; k += 1
    e = a - 1 if quoted else a
    if e == 0 or not (t[e - 1] == u" " or t[e - 1] == u"-"):
        return k
    j = e
    while j > 0 and (t[j - 1] == u" " or t[j - 1] == u"," or t[j - 1] == u"-") and e - j < 3:
        j -= 1
    if j > 0 and t[j - 1] == u".":
        j -= 1
    kk = j
    while kk > 0 and t[kk - 1] < 128 and t[kk - 1].isalpha() and j - kk < 10:
        kk -= 1
    if 3 <= j - kk and kk < a:
        shapes[k] = EN_MDY; starts[k] = kk; k += 1
        shapes[k] = EN_MY; starts[k] = kk; k += 1
    return k


# -- readings ----------------------------------------------------------------------------------
cdef struct Field:
    Py_ssize_t start   # absolute offsets of the field's digits
    Py_ssize_t end
    Py_UCS4 letter     # Y, R, M or D
    int value
    int style          # an index into _STYLES


cdef enum:
    S_N = 0
    S_N2 = 1
    S_N3 = 2
    S_N4 = 3
    S_C19 = 4
    S_C20 = 5

# Style names by code; styles met while reading (`zp〇3`, `T3`, `th` ...) are added on first use.
_STYLES = ["n", "n2", "n3", "n4", "c19", "c20"]
_STYLE_CODES = {name: code for code, name in enumerate(_STYLES)}


cdef int _style_code(str style):
    code = _STYLE_CODES.get(style)
    if code is None:
        code = _STYLE_CODES[style] = len(_STYLES)
        _STYLES.append(style)
    return code


cdef bint _valid(bint has_year, int year, bint has_month, int month, bint has_day, int day):
    """`formats.is_valid` (a missing field is has_* False)."""
    if has_year and not 1 <= year <= 9999:
        return False
    if not has_month:
        return has_year and not has_day
    if not 1 <= month <= 12:
        return False
    if not has_day:
        return True
    if not 1 <= day <= _DAYS[month]:
        return False
    if month == 2 and day == 29 and has_year and (year % 4 != 0 or (year % 100 == 0 and year % 400 != 0)):
        return False
    return True


_ORDER_LETTER = {"Y": "y", "R": "y", "M": "m", "D": "d"}


cdef class _Reader:
    """One match's readings: `finder._Builder` for the shapes matched here."""
    cdef str text
    cdef Py_ssize_t base, mend
    cdef int min_year, max_year, pivot
    cdef list readings

    cdef void add(self, Field* fields, int count, Py_ssize_t end):
        """`_Builder.add`: fields in text order; end < 0 means the match end."""
        cdef int year = 0, month = 0, day = 0, i
        cdef bint minguo = False, has_year = False, has_month = False, has_day = False
        for i in range(count):
            if fields[i].letter == u"M":
                month = fields[i].value
                has_month = True
            elif fields[i].letter == u"D":
                day = fields[i].value
                has_day = True
            elif fields[i].letter == u"R":
                if fields[i].value < 1:
                    return
                year = fields[i].value + MINGUO_OFFSET
                minguo = True
                has_year = True
            elif not minguo:
                year = fields[i].value
                has_year = True
        if has_year and not self.min_year <= year <= self.max_year:
            return
        if not _valid(has_year, year, has_month, month, has_day, day):
            return
        cdef Field placed[3]  # in text order (English day-first and year-first shapes); fields untouched
        cdef Field tmp
        cdef int j
        for i in range(count):
            placed[i] = fields[i]
            j = i
            while j > 0 and placed[j].start < placed[j - 1].start:
                tmp = placed[j]
                placed[j] = placed[j - 1]
                placed[j - 1] = tmp
                j -= 1
        fields = placed
        cdef list parts = []
        cdef str order = ""
        cdef Py_ssize_t pos = self.base
        cdef object letter
        for i in range(count):
            parts.append(self.text[pos:fields[i].start])
            letter = fields[i].letter
            parts.append("{" + letter + ":" + _STYLES[fields[i].style] + "}")
            pos = fields[i].end
            order += _ORDER_LETTER[letter]
        if end < 0:
            end = self.mend
        parts.append(self.text[pos:end])
        self.readings.append((end - self.base, _reading("".join(parts), order, minguo, has_year, year,
                                                         has_month, month, has_day, day)))

    cdef void two_digit_year(self, Field* f, Py_ssize_t s, Py_ssize_t e, int yy):
        """`_Builder.two_digit_year`: the field of a Christian year written with two digits."""
        cdef int century = 20 if yy < self.pivot else 19
        _set(f, s, e, u"Y", yy + 100 * century, S_C20 if century == 20 else S_C19)


cdef tuple _reading(str fmt, str order, bint minguo, bint has_year, int year, bint has_month, int month,
                    bint has_day, int day):
    """`finder._reading`: (format, calendar, value, precision, order)."""
    cdef str value, precision
    if not has_year:
        if has_day:
            value, precision = "--%02d-%02d" % (month, day), "month-day"
        else:
            value, precision = "--%02d" % month, "month-only"
    elif not has_month:
        value, precision = "%04d" % year, "year"
    elif not has_day:
        value, precision = "%04d-%02d" % (year, month), "month"
    else:
        value, precision = "%04d-%02d-%02d" % (year, month, day), "day"
    return fmt, ("minguo" if minguo else "christian"), value, precision, order


cdef int _pad1(str t, Py_ssize_t s, Py_ssize_t e, int fallback):
    """`_pad_styles` of one field."""
    if e - s == 1:
        return S_N
    if t[s] == u"0":
        return S_N2
    return fallback


cdef void _pad2(str t, Py_ssize_t s1, Py_ssize_t e1, Py_ssize_t s2, Py_ssize_t e2, int* out):
    """`_pad_styles` of two fields: a field without evidence follows the other, else `n2`."""
    cdef int ev1 = -1, ev2 = -1, fallback = S_N2
    if e1 - s1 == 1:
        ev1 = S_N
    elif t[s1] == u"0":
        ev1 = S_N2
    if e2 - s2 == 1:
        ev2 = S_N
    elif t[s2] == u"0":
        ev2 = S_N2
    if ev1 >= 0 and ev2 < 0:
        fallback = ev1
    elif ev2 >= 0 and ev1 < 0:
        fallback = ev2
    out[0] = ev1 if ev1 >= 0 else fallback
    out[1] = ev2 if ev2 >= 0 else fallback


cdef inline void _set(Field* f, Py_ssize_t s, Py_ssize_t e, Py_UCS4 letter, int value, int style):
    f.start = s
    f.end = e
    f.letter = letter
    f.value = value
    f.style = style


cdef void _read_numeric(_Reader r, str t, bint pre, Py_ssize_t a0, Py_ssize_t a1, Py_UCS4 sep,
                        Py_ssize_t b0, Py_ssize_t b1, Py_ssize_t c0, Py_ssize_t c1):
    """`finder._numeric`; c0 < 0 when there is no third field."""
    cdef Field f[3]
    cdef int pads[2]
    cdef int la = a1 - a0, lb = b1 - b0, lc = c1 - c0, av = _int(t, a0, a1), bv = _int(t, b0, b1), cv
    if c0 < 0 and lb == 4:
        if la <= 2 and not pre:  # 8/2019
            _set(&f[0], a0, a1, u"M", av, _pad1(t, a0, a1, S_N2))
            _set(&f[1], b0, b1, u"Y", bv, S_N4)
            r.add(f, 2, -1)
        return
    if lb > 2:
        return
    if c0 < 0:
        if la == 4 and not pre:
            _set(&f[0], a0, a1, u"Y", av, S_N4)
            _set(&f[1], b0, b1, u"M", bv, _pad1(t, b0, b1, S_N2))
            r.add(f, 2, -1)
        elif la == 3 or (pre and la <= 3):
            _set(&f[0], a0, a1, u"R", av, S_N3 if t[a0] == u"0" else S_N)
            _set(&f[1], b0, b1, u"M", bv, _pad1(t, b0, b1, S_N2))
            r.add(f, 2, -1)
        elif la <= 2 and not pre and sep == u"/":
            _pad2(t, a0, a1, b0, b1, pads)
            _set(&f[0], a0, a1, u"M", av, pads[0])
            _set(&f[1], b0, b1, u"D", bv, pads[1])
            r.add(f, 2, -1)
            f[0].letter = u"D"
            f[1].letter = u"M"
            r.add(f, 2, -1)
            if lb == 2 and bv > 31:  # 12/93: a month and its year
                f[0].letter = u"M"
                r.two_digit_year(&f[1], b0, b1, bv)
                r.add(f, 2, -1)
        return
    cv = _int(t, c0, c1)
    if lc == 4 and la <= 2 and not pre:
        _pad2(t, a0, a1, b0, b1, pads)
        _set(&f[0], a0, a1, u"M", av, pads[0])
        _set(&f[1], b0, b1, u"D", bv, pads[1])
        _set(&f[2], c0, c1, u"Y", cv, S_N4)
        r.add(f, 3, -1)
        f[0].letter = u"D"
        f[1].letter = u"M"
        r.add(f, 3, -1)
        return
    if lc > 2:
        return
    _pad2(t, b0, b1, c0, c1, pads)
    _set(&f[1], b0, b1, u"M", bv, pads[0])
    _set(&f[2], c0, c1, u"D", cv, pads[1])
    if la == 4 and not pre:
        _set(&f[0], a0, a1, u"Y", av, S_N4)
        r.add(f, 3, -1)
    elif la == 3 or (pre and la <= 3):
        _set(&f[0], a0, a1, u"R", av, S_N3 if t[a0] == u"0" and la == 3 else S_N)
        r.add(f, 3, -1)
    elif la == 2:
        _set(&f[0], a0, a1, u"R", av, S_N2 if t[a0] == u"0" else S_N)
        r.add(f, 3, -1)
        r.two_digit_year(&f[0], a0, a1, av)
        r.add(f, 3, -1)
    if lc == 2 and la <= 2 and not pre:
        _pad2(t, a0, a1, b0, b1, pads)
        _set(&f[0], a0, a1, u"M", av, pads[0])
        _set(&f[1], b0, b1, u"D", bv, pads[1])
        r.two_digit_year(&f[2], c0, c1, cv)
        r.add(f, 3, -1)
        f[0].letter = u"D"
        f[1].letter = u"M"
        r.add(f, 3, -1)


cdef void _read_compact(_Reader r, str t, Py_ssize_t pre_start, Py_ssize_t d0, Py_ssize_t d1):
    """`finder._compact`; pre_start < 0 without a `mk` prefix."""
    cdef int nd = d1 - d0
    if pre_start < 0:
        if nd == 8:
            _compact_fields(r, t, u"Y", d0, d1, 4, S_N4)
        elif nd == 7:
            _compact_fields(r, t, u"R", d0, d1, 3, S_N3)
        return
    cdef Field f[1]
    if nd <= 3:
        _set(&f[0], d0, d1, u"R", _int(t, d0, d1), S_N3 if nd == 3 and t[d0] == u"0" else S_N)
        r.add(f, 1, -1)
    elif nd == 4 or nd == 6:
        _compact_fields(r, t, u"R", d0, d1, 2, S_N)
    elif nd == 5 or nd == 7:
        _compact_fields(r, t, u"R", d0, d1, 3, S_N3 if t[d0] == u"0" else S_N)


cdef void _compact_fields(_Reader r, str t, Py_UCS4 year_field, Py_ssize_t d0, Py_ssize_t d1, int ylen,
                          int ystyle):
    """`finder._compact_fields`: fixed-width fields, the template written by hand."""
    if ystyle == S_N and t[d0] == u"0":
        return
    cdef int year = _int(t, d0, d0 + ylen), month = _int(t, d0 + ylen, d0 + ylen + 2), day = 0
    cdef bint has_day = d1 - d0 >= ylen + 4
    if has_day:
        day = _int(t, d0 + ylen + 2, d0 + ylen + 4)
    cdef bint minguo = year_field == u"R"
    if minguo:
        if year < 1:
            return
        year += MINGUO_OFFSET
    if not r.min_year <= year <= r.max_year or not _valid(True, year, True, month, has_day, day):
        return
    cdef object letter = year_field
    cdef str fmt = t[r.base:d0] + "{" + letter + ":" + _STYLES[ystyle] + "}{M:n2}" + ("{D:n2}" if has_day else "")
    r.readings.append((r.mend - r.base, _reading(fmt, "ymd" if has_day else "ym", minguo, True, year, True,
                                                 month, has_day, day)))


# -- matching the digit shapes -----------------------------------------------------------------
cdef inline bint _lb(str t, Py_ssize_t p, Py_ssize_t n):
    """`_LB` at p: not glued to a number, word, or a decimal/IP/time before it."""
    cdef Py_UCS4 c1 = _at(t, p - 1, n)
    if _word(c1):
        return False
    return not ((c1 == u"." or c1 == u"/" or c1 == u":") and _digit(_at(t, p - 2, n)))


cdef inline bint _rb(str t, Py_ssize_t q, Py_ssize_t n):
    """`_RB` at q."""
    cdef Py_UCS4 c = _at(t, q, n)
    if _word(c):
        return False
    return not ((c == u"." or c == u"/" or c == u":") and _digit(_at(t, q + 1, n)))


cdef Py_ssize_t _prefix_len(str t, Py_ssize_t p, Py_ssize_t n):
    """`_PRE` at p: the prefix and its optional space, or 0."""
    cdef Py_ssize_t k
    if _is_minguo(t, p, n) or _is_mk(t, p, n):
        k = 2
        if _at(t, p + 2, n) == u" ":
            k = 3
        return k
    return 0


cdef Py_ssize_t _match_numeric(str t, Py_ssize_t p, Py_ssize_t n, Py_ssize_t* g):
    """`SHAPES['numeric']` at p; g = a0, a1, b0, b1, c0, c1, prefix length. Returns the end or -1."""
    if not _lb(t, p, n):
        return -1
    cdef Py_ssize_t pl = _prefix_len(t, p, n), a0 = p + pl, a1, b0, b1, c0, c1
    a1 = _run_end(t, a0, n)
    if a1 == a0 or a1 - a0 > 4 or a1 >= n:
        return -1
    cdef Py_UCS4 sep = t[a1]
    if not (sep == u"." or sep == u"/" or sep == u"-"):
        return -1
    b0 = a1 + 1
    b1 = _run_end(t, b0, n)
    if b1 == b0 or b1 - b0 > 4:
        return -1
    g[0] = a0; g[1] = a1; g[2] = b0; g[3] = b1; g[4] = -1; g[5] = -1; g[6] = pl
    if _at(t, b1, n) == sep:
        c0 = b1 + 1
        c1 = _run_end(t, c0, n)
        if c0 < c1 <= c0 + 4 and _rb(t, c1, n):
            g[4] = c0; g[5] = c1
            return c1
    if _rb(t, b1, n):
        return b1
    return -1


cdef class _Scanner:
    """One text's scan: the state `finder._scan` keeps in locals."""
    cdef str text
    cdef Py_ssize_t n
    cdef object settings
    cdef int min_year, max_year, pivot
    cdef dict cache
    cdef list found

    cdef object read_native(self, int shape, Py_ssize_t start, Py_ssize_t end, Py_ssize_t* g):
        """The reading groups of a digit-shape match t[start:end] (cached by surface)."""
        cdef str surface = self.text[start:end]
        key = (SHAPE_NAMES[shape], surface)
        groups = self.cache.get(key)
        if groups is not None:
            return groups
        cdef _Reader r = self.reader(start, end)
        cdef Field f[1]
        if shape == NUMERIC:
            _read_numeric(r, self.text, g[6] > 0, g[0], g[1], self.text[g[1]], g[2], g[3], g[4], g[5])
        elif shape == COMPACT_MK:
            _read_compact(r, self.text, start, g[0], g[1])
        elif shape == COMPACT:
            _read_compact(r, self.text, -1, g[0], g[1])
        else:  # BARE_YEAR
            _set(&f[0], g[0], g[1], u"Y", _int(self.text, g[0], g[1]), S_N4)
            r.add(f, 1, -1)
        return self._store(key, r.readings)

    cdef _Reader reader(self, Py_ssize_t start, Py_ssize_t end):
        """An empty reading of the match text[start:end] under this scan's settings."""
        cdef _Reader r = _Reader.__new__(_Reader)
        r.text = self.text
        r.base = start
        r.mend = end
        r.min_year = self.min_year
        r.max_year = self.max_year
        r.pivot = self.pivot
        r.readings = []
        return r

    cdef object _store(self, key, list readings):
        """`_read_match`'s grouping of readings by their end, stored in the shared cache."""
        cdef dict by_end
        if len(readings) == 1:
            groups = ((readings[0][0], (readings[0][1],)),)
        else:
            by_end = {}
            for end, reading in readings:
                by_end.setdefault(end, []).append(reading)
            groups = tuple((end, tuple(rs)) for end, rs in by_end.items())
        if len(self.cache) >= _CACHE_SIZE:
            self.cache.clear()
        self.cache[key] = groups
        return groups

    cdef void emit(self, int shape, Py_ssize_t start, Py_ssize_t end, groups):
        """`_read_match` after reading: context vetoes (only for a match that reads as a date), then one
        candidate per end."""
        if not groups:
            return
        if (shape == NUMERIC or shape == BARE_YEAR or shape == COMPACT) and _context_vetoed(
                self.text, start, end, shape):
            return
        for rel_end, readings in groups:
            if shape == NUMERIC and _month_day_only(readings) and _fraction_vetoed(
                    self.text, start, start + rel_end, readings):
                continue
            self.found.append([start, start + rel_end, readings])

    cdef void try_shape(self, int shape, Py_ssize_t pos):
        cdef Py_ssize_t g[7]
        cdef Py_ssize_t end, e
        cdef str t = self.text
        cdef Py_ssize_t n = self.n
        if shape == NUMERIC:
            end = _match_numeric(t, pos, n, g)
            if end >= 0:
                self.emit(shape, pos, end, self.read_native(shape, pos, end, g))
        elif shape == COMPACT_MK:
            if pos > 0 and _word(t[pos - 1]) or not _is_mk(t, pos, n):
                return
            e = _run_end(t, pos + 2, n)
            if pos + 2 < e <= pos + 9 and _rb(t, e, n):
                g[0] = pos + 2; g[1] = e
                self.emit(shape, pos, e, self.read_native(shape, pos, e, g))
        elif shape == COMPACT:
            e = _run_end(t, pos, n)
            if 7 <= e - pos <= 8 and _lb(t, pos, n) and _rb(t, e, n):
                g[0] = pos; g[1] = e
                self.emit(shape, pos, e, self.read_native(shape, pos, e, g))
        elif shape == BARE_YEAR:
            e = _run_end(t, pos, n)
            if e - pos >= 4 and not (pos > 0 and _word(t[pos - 1])) and _rb(t, pos + 4, n) and _year_prefix(t, pos):
                g[0] = pos; g[1] = pos + 4
                self.emit(shape, pos, pos + 4, self.read_native(shape, pos, pos + 4, g))
        elif _may_match(t, shape, pos, n):
            m = _regexes[shape].match(t, pos)
            if m is not None:
                self.emit(shape, pos, m.end(), self.read_regex(shape, m))

    cdef object read_regex(self, int shape, m):
        key = (SHAPE_NAMES[shape], m.group())
        groups = self.cache.get(key)
        if groups is not None:
            return groups
        cdef _Reader r = self.reader(m.start(), m.end())
        cdef Field f[1]
        if shape == ZH_YEAR or shape == ZH_PREFIXED or shape == ZH_MONTH:
            _read_zh(r, m, shape != ZH_MONTH)
        elif shape == APOSTROPHE_YEAR:  # `finder._apostrophe_year`
            r.two_digit_year(&f[0], m.start(), m.end(), _int(self.text, m.start(), m.end()))
            r.add(f, 1, -1)
        else:
            _read_english(r, m)
        return self._store(key, r.readings)


cdef bint _may_match(str t, int shape, Py_ssize_t pos, Py_ssize_t n):
    """A necessary condition for the English shapes' regexes (a month name where one must stand), so
    that a number after a word or before a unit (`HR 72`, `50 mg`) costs no regex call."""
    cdef Py_ssize_t b
    if shape == EN_MDY or shape == EN_MY:
        return _month_start(t, pos, n)
    if shape == EN_DMY or shape == EN_DASH or shape == EN_YMD or shape == EN_YDASH:
        b = _run_end(t, pos, n)
        if shape == EN_DMY and _ordinal(t, b, n):
            b += 2
        if not (_at(t, b, n) == u" " or _at(t, b, n) == u"-" or _at(t, b, n) == u"/"):
            return False
        b += 1
        if shape == EN_DMY and _at(t, b, n) == u"o" and _at(t, b + 1, n) == u"f" and _at(t, b + 2, n) == u" ":
            return _month_start(t, b, n) or _month_start(t, b + 3, n)
        return _month_start(t, b, n)
    return True


cdef inline bint _month_start(str t, Py_ssize_t i, Py_ssize_t n):
    return _three_letters_in(t, i, n, _MONTH_STARTS)


cdef inline bint _month_day_only(tuple readings):
    """Only a month-day (`3/14`) can be a fraction (`finder._fraction_vetoed` says no to the rest)."""
    for r in readings:
        if r[3] != "month-day":
            return False
    return True


cdef bint _context_vetoed(str text, Py_ssize_t start, Py_ssize_t end, int shape) except -1:
    """`finder._context_vetoed`, with its regexes."""
    cdef str left = text[start - 24 if start > 24 else 0:start]
    if shape == NUMERIC and _full_date(text, start, end) is not None:
        return False
    if shape == BARE_YEAR:
        if _year_cue(left) is None or _clock_time(text, start, end):
            return True
    elif shape == COMPACT and _id_veto(left) is not None:
        return True
    if _left_may_veto(text, start) and _left_veto(left[::-1]) is not None:
        return True
    return _right_veto(text[end:end + 12]) is not None


cdef bint _left_may_veto(str text, Py_ssize_t start):
    """Does the left context end (after `_LEFT_STRIP`) in a character a veto word or phrase ends in?"""
    cdef Py_ssize_t lo = start - 24 if start > 24 else 0, i = start - 1
    while i >= lo and text[i] in _left_strip:
        i -= 1
    return i >= lo and text[i] in _left_veto_last


# -- readings of the shapes matched by regex -------------------------------------------------------
cdef bint _numeral(str text, int* value, int* style):
    """`numerals.parse_numeral`: Arabic digits here, Chinese numerals by the reference."""
    cdef Py_ssize_t i, n = len(text)
    cdef int v = 0
    for i in range(n):
        if not _digit(text[i]):
            parsed = _parse_numeral(text)
            if parsed is None:
                return False
            value[0] = parsed[0]
            style[0] = _style_code(parsed[1])
            return True
        v = v * 10 + (<int>text[i] - 48)
    value[0] = v
    style[0] = S_N
    return n > 0


cdef void _read_zh(_Reader r, m, bint has_year_group):
    """`finder._zh` (with `_zh_fields` and `_zh_year_field`)."""
    cdef Field f[3]
    cdef int k = 0, value, style, pads[2], count, i, yvalue, ystyle, ydigits
    cdef bint m_arabic = False, d_arabic = False, pre
    cdef Py_ssize_t ms = 0, me = 0, ds = 0, de = 0, ys, ye
    cdef str mtext = m.group("m"), dtext = m.group("d"), ytext, ystyle_name
    if mtext is not None:
        ms, me = m.span("m")
        m_arabic = mtext.isdigit()
    if dtext is not None:
        ds, de = m.span("d")
        d_arabic = dtext.isdigit()
    if m_arabic and d_arabic:
        _pad2(r.text, ms, me, ds, de, pads)
    elif m_arabic:
        pads[0] = _pad1(r.text, ms, me, S_N2)
    elif d_arabic:
        pads[1] = _pad1(r.text, ds, de, S_N2)
    # month and day fields go after the year (slot 0)
    if mtext is not None:
        if not _numeral(mtext, &value, &style):
            return
        _set(&f[1 + k], ms, me, u"M", value, pads[0] if style == S_N and m_arabic else style)
        k += 1
    if dtext is not None:
        if not _numeral(dtext, &value, &style):
            return
        _set(&f[1 + k], ds, de, u"D", value, pads[1] if style == S_N and d_arabic else style)
        k += 1
    ytext = m.group("y") if has_year_group else None
    if ytext is None:
        r.add(&f[1], k, -1)
        return
    pre = m.group("pre") is not None and len(m.group("pre")) > 0
    ys, ye = m.span("y")
    if not _numeral(ytext, &yvalue, &ystyle):
        return
    if k == 0 and not pre and yvalue < 100:
        return  # year only: a 1-2 digit 年 without a prefix is a duration (`10年`, `二十年`)
    ystyle_name = _STYLES[ystyle]
    ydigits = len(ytext) if ystyle_name != "zc" else len(str(yvalue))
    if ystyle_name.startswith("zp") and ytext[0] in u"〇零○":
        ystyle = _style_code(ystyle_name + str(len(ytext)))
    if ystyle == S_N:
        ystyle = S_N4 if len(ytext) == 4 else (S_N3 if len(ytext) == 3 and ytext[0] == u"0" else S_N)
    if ydigits == 4:
        if not pre:
            _set(&f[0], ys, ye, u"Y", yvalue, ystyle)
            r.add(f, k + 1, -1)
        return
    _set(&f[0], ys, ye, u"R", yvalue, ystyle)
    r.add(f, k + 1, -1)
    if ydigits == 2 and not pre and ystyle == S_N:
        r.two_digit_year(&f[0], ys, ye, yvalue)
        r.add(f, k + 1, -1)


cdef void _read_english(_Reader r, m):
    """`finder._english`."""
    cdef Field f[3]
    cdef int k = 1, month, before
    cdef str mon = m.group("mon"), style, length, dtext, ytext, sep
    cdef Py_ssize_t s0, s1
    gd = m.groupdict()
    dtext = gd.get("d")
    ytext = gd.get("y")
    sep = gd.get("s")
    if mon in _LOWERCASE_WORDS and not (ytext and dtext):
        return  # `may 2 times`; but `mar 1, 2000` has both a day and a year
    month, style = _month_field(mon)
    length = style[1:]
    s0, s1 = m.span("mon")
    _set(&f[0], s0, s1, u"M", month, _style_code(style))
    if dtext:
        s0, s1 = m.span("d")
        if dtext[len(dtext) - 1].isalpha():
            _set(&f[1], s0, s1, u"D", int(dtext[:len(dtext) - 2]), _style_code("th"))
        else:
            _set(&f[1], s0, s1, u"D", int(dtext), _pad1(r.text, s0, s1, S_N2 if sep else S_N))
        k = 2
    if ytext:
        s0, s1 = m.span("y")
        if len(ytext) == 2:
            if sep == " ":
                return  # `25 Dec 21` is too weak; `25 Dec` alone is found by en_dmy
            r.two_digit_year(&f[k], s0, s1, int(ytext))
        else:
            _set(&f[k], s0, s1, u"Y", int(ytext), S_N4)
        before = len(r.readings)
        r.add(f, k + 1, -1)
        if len(r.readings) > before or not dtext or sep:
            return
        r.add(f, k, m.end("d"))  # `Dec 25 1000 mg`: the date is `Dec 25`
        return
    if not length and m.group().endswith(".") and m.end("mon") == m.end() - 1:
        r.add(f, k, m.end("mon"))  # `3 December.`: the period ends the sentence
        return
    r.add(f, k, -1)


cdef inline bint _year_prefix(str t, Py_ssize_t p):
    """`(?:1[89]|2[0-3])[0-9]{2}`: the first two digits of a bare year."""
    cdef Py_UCS4 a = t[p], b = t[p + 1]
    return (a == u"1" and (b == u"8" or b == u"9")) or (a == u"2" and u"0" <= b <= u"3")


def scan(str text, settings, dict cache) -> list:
    """`finder._scan(text, settings)`: candidates [start, end, readings] before merging; `cache` is
    `finder`'s read cache for these settings (the same keys and values)."""
    cdef _Scanner s = _Scanner.__new__(_Scanner)
    cdef bint bare_years = settings.bare_years
    s.text = text
    s.n = len(text)
    s.settings = settings
    s.min_year = settings.min_year
    s.max_year = settings.max_year
    s.pivot = settings.two_digit_year_pivot
    s.cache = cache
    s.found = []
    cdef Py_ssize_t n = s.n, p = 0, q, covered = -1, i, j, top
    cdef int shapes[16]
    cdef Py_ssize_t starts[16]
    cdef int count, k
    cdef Py_UCS4 c
    cdef set tried = set()
    cdef list found = s.found
    cdef long long key
    while p < n:
        c = text[p]
        if c == u"年" or c == u"月":
            if p == 0 or not _zh_numeral(text[p - 1]):
                p += 1
                continue
            q = p + 1
        elif _digit(c):
            q = _run_end(text, p, n)
            if not _anchor_digits(text, p, q, n):
                p = q
                continue
        else:
            p += 1
            continue
        if p >= covered:
            count = _shapes_at(text, p, q, n, shapes, starts)
            for k in range(count):
                if shapes[k] == BARE_YEAR and not bare_years:
                    continue
                key = <long long>starts[k] * N_SHAPES + shapes[k]
                if key in tried:
                    continue
                tried.add(key)
                s.try_shape(shapes[k], starts[k])
            if found and found[len(found) - 1][1] > covered:
                top = covered
                for i in range(max(0, len(found) - 3), len(found)):
                    if found[i][1] > top:
                        top = found[i][1]
                covered = top
        p = q
    return found


# -- merging (`finder._merge`) -------------------------------------------------------------------
cdef dict _preference_keys = {}  # format -> finder._preference_key of a reading in that format


def _preference_of(tuple reading):
    fmt = reading[0]
    key = _preference_keys.get(fmt)
    if key is None:
        if len(_preference_keys) >= _CACHE_SIZE:
            _preference_keys.clear()
        key = _preference_keys[fmt] = _preference_key(reading)
    return key


def _start_of(list cand):
    return cand[0]


cdef list _merge_overlapping(list cands):
    """`finder._merge_overlapping`: longest first, then earlier; identical spans pool their readings."""
    cdef list keyed = [(-(<Py_ssize_t>c[1] - <Py_ssize_t>c[0]), c[0], i, c) for i, c in enumerate(cands)]
    keyed.sort()
    cdef dict by_offsets = {}
    cdef list starts = [], ends = []
    cdef Py_ssize_t i, start, end
    for item in keyed:
        cand = item[3]
        start = cand[0]
        end = cand[1]
        same = by_offsets.get((start, end))
        if same is not None:
            seen = {(r[0], r[2]) for r in same[2]}
            same[2] = list(same[2]) + [r for r in cand[2] if (r[0], r[2]) not in seen]
            continue
        i = _bisect_left(starts, start)
        if (i < len(starts) and <Py_ssize_t>starts[i] < end) or (i > 0 and <Py_ssize_t>ends[i - 1] > start):
            continue  # overlaps a longer (or earlier) candidate
        starts.insert(i, start)
        ends.insert(i, end)
        by_offsets[(start, end)] = [start, end, cand[2]]
    return sorted(by_offsets.values(), key=_start_of)


cdef Py_ssize_t _bisect_left(list values, Py_ssize_t x):
    cdef Py_ssize_t lo = 0, hi = len(values), mid
    while lo < hi:
        mid = (lo + hi) // 2
        if <Py_ssize_t>values[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def merge(list cands) -> list:
    """`finder._merge`: (start, end, readings in the default preference order), overlaps resolved."""
    cdef list ordered = sorted(cands, key=_start_of)
    cdef Py_ssize_t i, n = len(ordered)
    for i in range(1, n):
        if <Py_ssize_t>ordered[i][0] < <Py_ssize_t>ordered[i - 1][1]:
            ordered = _merge_overlapping(cands)
            break
    cdef list out = []
    for cand in ordered:
        readings = cand[2]
        if len(readings) > 1:
            out.append((cand[0], cand[1], tuple(sorted(readings, key=_preference_of))))
        else:
            out.append((cand[0], cand[1], tuple(readings)))
    return out


def find(str text, settings, dict cache) -> list:
    """`finder.find_readings`: the scan, merged."""
    return merge(scan(text, settings, cache))
