/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * relaxed_json.h - rt-app's relaxed JSON dialect, rewritten into strict JSON for jansson.
 *
 * rt-app reads its files with json-c, which accepts C comments and trailing commas, and its
 * `workgen` front end additionally accepts repeated keys (renaming the repeats) and a bare
 * "suspend" key without a value.  This module accepts exactly that and emits strict JSON in
 * which nothing moves: comments become blanks (newlines kept, so line numbers still match the
 * source), trailing commas become blanks, a bare key gets the value null, and the second and
 * later occurrences of a key within one object get RELAXED_DUP_MARK and a number appended
 * ("run" "run" -> "run" "run<MARK>1"), so that every key is unique and keeps its place.
 * A reader recognises a repeat by the mark and takes the part before it as the key.
 * The two insertions (a repeat's suffix, ":null") are recorded in a map, so that a position in
 * the strict text (a jansson error) maps back to the line and column of the file.
 * Linear in the size of the text: keys already seen in an object are kept in a hash table.
 *
 * It does not validate values: strings and numbers are copied as written and jansson checks
 * them.  Keys must be double-quoted strings, as in JSON.
 */
#ifndef GEARBOX_RELAXED_JSON_H
#define GEARBOX_RELAXED_JSON_H

#include <stddef.h>

#include "gb_err.h"

/* The byte that separates a repeated key from its repeat number (U+001F, unit separator). */
#define RELAXED_DUP_MARK  '\x1f'
#define RELAXED_MAX_DEPTH 32	  /* nesting of objects and arrays */
#define RELAXED_MAX_KEYS  1048576 /* members of one object (the loader's limits are lower) */
#define RELAXED_STR_(x)	  #x
#define RELAXED_STR(x)	  RELAXED_STR_(x)

/* From out_pos on, the strict text is `added` bytes longer than the source. */
struct relaxed_json_shift {
	size_t out_pos, added;
};

struct relaxed_json_map {
	struct relaxed_json_shift *shifts; /* by out_pos */
	size_t nr_shifts;
};

/*
 * Rewrites text[0..len) into a NUL-terminated strict JSON string *out (free() it) of length
 * *out_len; fills *map when map is not NULL (free it with relaxed_json_map_free()).  Returns 0,
 * or -EINVAL with "line L, column C: reason" in err, or -ENOMEM.
 */
int relaxed_json_to_strict(const char *text, size_t len, char **out, size_t *out_len,
			   struct relaxed_json_map *map, struct gb_err *err);

/* The byte offset in the source of byte strict_pos of the strict text. */
size_t relaxed_json_source_pos(const struct relaxed_json_map *map, size_t strict_pos);
void relaxed_json_map_free(struct relaxed_json_map *map);

/* Line and column (from 1, in bytes) of byte pos of text. */
void relaxed_json_line_col(const char *text, size_t len, size_t pos, size_t *line, size_t *col);

#endif
