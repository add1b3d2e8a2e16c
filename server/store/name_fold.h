/*
 * name_fold.h: the key the archive finds a player's name by, so that its
 * player filter ignores case and accents ("ana" finds "Ana" and "Ána"). A
 * name is folded code point by code point: ASCII letters lower-cased; the
 * letters of Latin-1 Supplement, Latin Extended-A, -B and Additional and of
 * Greek lower-cased without their accents (their decomposition's base letter:
 * "É" -> "e", "ŵ" -> "w", "Ά" -> "α"), with a few letters that do not
 * decompose given their base by hand ("ø" -> "o", "ł" -> "l", "đ" -> "d") and
 * ligatures spelt out ("æ" -> "ae", "ß" -> "ss"); Cyrillic lower-cased;
 * combining marks (U+0300..U+036F and the other combining blocks) dropped, so
 * a decomposed "A" + U+0301 folds as "Á" does; everything else kept as it is.
 * The table is name_fold_table.h (written by name_fold_table.py).
 *
 * Must not: allocate or depend on the locale. A folded name is never longer
 * than the name (in bytes). The same function folds the stored names
 * (match_seats.name_key, migration 0012) and the name asked for.
 */
#ifndef QUINTETO_NAME_FOLD_H
#define QUINTETO_NAME_FOLD_H

#include <sqlite3.h>
#include <stddef.h>

/*
 * Folds the UTF-8 text `name` (len bytes) into `out` (room for len + 1
 * bytes), NUL-terminated; returns the folded length. Bytes that are not
 * UTF-8 are copied as they are.
 */
size_t name_fold(const char *name, size_t len, char *out);

/*
 * Adds the SQL function quinteto_fold(text) -> text (name_fold) to `db`, for
 * the migration that fills the keys of names archived before it and for
 * tools that write archives. SQLITE_OK or SQLite's error code.
 */
int name_fold_register(sqlite3 *db);

#endif
