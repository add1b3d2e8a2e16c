/*
 * handle.h: an account's handle (PROTOCOL.md "Accounts and ratings",
 * docs/ACCOUNTS.md): the rules a handle must follow and the key two handles
 * are compared by. A handle is 3..20 characters: ASCII letters and digits,
 * `_`, `-`, and the Latin letters with accents that name_fold() folds to one
 * ASCII letter (`á`, `ñ`, `ç`, `ø`); the first is a letter. Everything else is
 * refused, so a handle can only look like another when their keys are equal:
 * other scripts (Cyrillic `а`, Greek `ο`), fullwidth forms, spaces, symbols,
 * invisible and combining characters. The key is the handle folded
 * (name_fold: lower case, no accents) with `0` read as `o`, `1` as `l` and
 * `-` as `_`.
 *
 * Must not: allocate or depend on the locale.
 */
#ifndef QUINTETO_HANDLE_H
#define QUINTETO_HANDLE_H

#include <stddef.h>

#define HANDLE_MIN_CHARS 3
#define HANDLE_MAX_CHARS 20
/* Bytes of a handle (and of its key, never longer) with its NUL: 20 characters of at most 3 bytes. */
#define HANDLE_SIZE (HANDLE_MAX_CHARS * 3 + 1)

/*
 * Checks the NUL-terminated `handle` and writes its key into `key` (room for
 * HANDLE_SIZE bytes). NULL when it is a handle; otherwise a sentence saying
 * which rule it breaks (static text, for the `bad_handle` message), `key`
 * then unspecified.
 */
const char *handle_check(const char *handle, char key[HANDLE_SIZE]);

#endif
