#!/usr/bin/env python3
# name_fold_table.py: writes name_fold_table.h, the table name_fold.c folds names with (the archive's
# player filter: case and accents ignored). Run from this folder: python3 name_fold_table.py > name_fold_table.h
# For every code point of Latin-1 Supplement, Latin Extended-A and -B (U+00C0..U+024F), Greek (U+0386..U+03CE)
# and Latin Extended Additional (U+1E00..U+1EFF) that folds to something else: its canonical decomposition
# (NFD) without the combining marks, lower-cased; a few letters with no decomposition are given their
# base letter by hand (ø, đ, ł, ħ, ŧ, ı, ...) and ligatures their letters (æ ae, œ oe, ß ss, ĳ ij). What
# folds to ASCII is kept as ASCII (at most 2 letters); else the lower-case code point if it is below
# U+0800 (so a folded name is never longer than the name); else the code point is left as it is.
import unicodedata

SPECIAL = {'ø': 'o', 'Ø': 'o', 'ǿ': 'o', 'Ǿ': 'o', 'đ': 'd', 'Đ': 'd', 'ł': 'l', 'Ł': 'l', 'ħ': 'h', 'Ħ': 'h',
           'ŧ': 't', 'Ŧ': 't', 'ı': 'i', 'ƀ': 'b', 'Ƀ': 'b', 'ɨ': 'i', 'Ɨ': 'i', 'ƶ': 'z', 'Ƶ': 'z', 'ǥ': 'g',
           'Ǥ': 'g', 'ŀ': 'l', 'Ŀ': 'l', 'ſ': 's', 'ẛ': 's', 'ƒ': 'f', 'Ƒ': 'f',
           'æ': 'ae', 'Æ': 'ae', 'ǣ': 'ae', 'Ǣ': 'ae', 'ǽ': 'ae', 'Ǽ': 'ae', 'œ': 'oe', 'Œ': 'oe',
           'ß': 'ss', 'ẞ': 'ss', 'ĳ': 'ij', 'Ĳ': 'ij', 'Ǆ': 'dz', 'ǅ': 'dz', 'ǆ': 'dz', 'Ǳ': 'dz', 'ǲ': 'dz',
           'ǳ': 'dz', 'Ǉ': 'lj', 'ǈ': 'lj', 'ǉ': 'lj', 'Ǌ': 'nj', 'ǋ': 'nj', 'ǌ': 'nj'}
RANGES = [(0x00C0, 0x0250), (0x0386, 0x03CF), (0x1E00, 0x1F00)]


def fold(c):
    if c in SPECIAL:
        return SPECIAL[c]
    base = ''.join(x for x in unicodedata.normalize('NFD', c) if unicodedata.category(x) != 'Mn')
    return base.lower()


rows = []
for lo, hi in RANGES:
    for cp in range(lo, hi):
        c = chr(cp)
        if unicodedata.category(c)[0] != 'L':
            continue
        f = fold(c)
        if f == c or not f:
            continue
        if f.isascii() and len(f) <= 2:
            rows.append(f'\t{{ 0x{cp:04X}, 0, "{f}" }}, /* {unicodedata.name(c).lower()} */')
        elif len(f) == 1 and ord(f) < 0x800:
            rows.append(f'\t{{ 0x{cp:04X}, 0x{ord(f):04X}, "" }}, /* {unicodedata.name(c).lower()} */')
print(f'/* name_fold_table.h: written by name_fold_table.py (Unicode {unicodedata.unidata_version}); do not edit. */')
print('/* clang-format off */')
print('static const struct fold_row fold_rows[] = {')
print('\n'.join(rows))
print('};')
print('/* clang-format on */')
