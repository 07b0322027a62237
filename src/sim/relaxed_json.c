// SPDX-License-Identifier: GPL-2.0-only
/*
 * relaxed_json.c - a one-pass rewriter from rt-app's relaxed JSON to strict JSON.
 *
 * A recursive descent over the token structure only: objects, arrays, keys, and the extent
 * of scalars.  Output is built as the input is read, so the order of keys is the order of the
 * file.  The one place it has to look back is a trailing comma, which is overwritten by a
 * blank once the closing bracket shows it was one.
 */
#include "relaxed_json.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct strbuf {
	char *p;
	size_t len, cap;
	bool oom;
};

struct rj {
	const char *s;
	size_t len, pos;
	int depth;
	struct strbuf out;
	struct relaxed_json_map map;
	size_t cap_shifts;
	bool shift_oom;
	struct gb_err *err;
};

/*
 * The keys already written in one object, as written (quotes and escapes included), in an
 * open-addressing hash table: a lookup is O(1) expected, so an object of k keys costs O(k).
 * Each entry also counts the repeats written for it, so that the next repeat of a key starts
 * numbering after them.
 */
struct keyslot {
	char *key;
	unsigned repeats;
};

struct keyset {
	struct keyslot *slots;
	size_t n, cap; /* cap: 0 or a power of two, at most half full */
};

static void sb_add(struct strbuf *b, const char *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *np;

		while (cap < b->len + n + 1)
			cap *= 2;
		np = realloc(b->p, cap);
		if (!np) {
			b->oom = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_addc(struct strbuf *b, char c)
{
	sb_add(b, &c, 1);
}

void relaxed_json_line_col(const char *text, size_t len, size_t pos, size_t *line, size_t *col)
{
	size_t i;

	*line = *col = 1;
	for (i = 0; i < pos && i < len; i++) {
		if (text[i] == '\n') {
			++*line;
			*col = 1;
		} else {
			++*col;
		}
	}
}

size_t relaxed_json_source_pos(const struct relaxed_json_map *map, size_t strict_pos)
{
	size_t lo = 0, hi = map ? map->nr_shifts : 0;

	/* the last shift at or before strict_pos */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map->shifts[mid].out_pos <= strict_pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return strict_pos;
	return strict_pos - map->shifts[lo - 1].added;
}

void relaxed_json_map_free(struct relaxed_json_map *map)
{
	if (!map)
		return;
	free(map->shifts);
	map->shifts = NULL;
	map->nr_shifts = 0;
}

static int rj_fail(struct rj *r, const char *reason)
{
	size_t line, col;

	relaxed_json_line_col(r->s, r->len, r->pos, &line, &col);
	return gb_err_set(r->err, EINVAL, "line %zu, column %zu: %s", line, col, reason);
}

static bool rj_eof(const struct rj *r)
{
	return r->pos >= r->len;
}

static char rj_peek(const struct rj *r, size_t ahead)
{
	return r->pos + ahead < r->len ? r->s[r->pos + ahead] : '\0';
}

/*
 * Copies blanks; replaces each byte of a comment by a blank, keeping its newlines, so that
 * lines and columns of the strict text still match the source.
 */
static int rj_skip_blank(struct rj *r)
{
	while (!rj_eof(r)) {
		char c = r->s[r->pos];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			sb_addc(&r->out, c);
			r->pos++;
		} else if (c == '/' && rj_peek(r, 1) == '/') {
			while (!rj_eof(r) && r->s[r->pos] != '\n') {
				sb_addc(&r->out, ' ');
				r->pos++;
			}
		} else if (c == '/' && rj_peek(r, 1) == '*') {
			size_t start = r->pos, out_start = r->out.len;

			r->pos += 2;
			sb_add(&r->out, "  ", 2);
			while (!rj_eof(r) && !(r->s[r->pos] == '*' && rj_peek(r, 1) == '/')) {
				sb_addc(&r->out, r->s[r->pos] == '\n' ? '\n' : ' ');
				r->pos++;
			}
			if (rj_eof(r)) {
				r->pos = start;
				r->out.len = out_start;
				return rj_fail(r, "unterminated comment");
			}
			r->pos += 2;
			sb_add(&r->out, "  ", 2);
		} else {
			break;
		}
	}
	return 0;
}

/* Finds the extent [start, r->pos) of the string token at r->pos, quotes included. */
static int rj_string_extent(struct rj *r, size_t *start)
{
	*start = r->pos++;
	while (!rj_eof(r)) {
		unsigned char c = (unsigned char)r->s[r->pos];

		if (c == '"') {
			r->pos++;
			return 0;
		}
		if (c == '\n') {
			break;
		}
		if (c < 0x20)
			return rj_fail(r, "control character in a string");
		/* an escape's character may not be one either: a key made unique by a suffix
		 * (rj_emit_key) must hold no NUL */
		if (c == '\\' && r->pos + 1 < r->len && (unsigned char)r->s[r->pos + 1] < 0x20) {
			r->pos++;
			return rj_fail(r, "control character in a string");
		}
		r->pos += c == '\\' ? 2 : 1;
	}
	r->pos = *start;
	return rj_fail(r, "unterminated string");
}

static bool is_scalar_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '+' || c == '-' || c == '.';
}

static int rj_value(struct rj *r);

static void keyset_free(struct keyset *ks)
{
	size_t i;

	for (i = 0; i < ks->cap; i++)
		free(ks->slots[i].key);
	free(ks->slots);
}

/* FNV-1a, then a 64-bit finalizer: the table takes the low bits, which FNV alone spreads
 * poorly for keys that differ only in their last characters ("k1", "k2", ...). */
static size_t key_hash(const char *key)
{
	unsigned long long h = 14695981039346656037ull;

	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (size_t)h;
}

/* The slot holding key, or the empty slot where it would go (cap > 0). */
static struct keyslot *keyset_slot(const struct keyset *ks, const char *key)
{
	size_t i = key_hash(key) & (ks->cap - 1);

	while (ks->slots[i].key && strcmp(ks->slots[i].key, key))
		i = (i + 1) & (ks->cap - 1);
	return &ks->slots[i];
}

static struct keyslot *keyset_find(const struct keyset *ks, const char *key)
{
	struct keyslot *slot;

	if (!ks->cap)
		return NULL;
	slot = keyset_slot(ks, key);
	return slot->key ? slot : NULL;
}

/* Adds key (not yet in the set; the set takes it over). */
static int keyset_add(struct keyset *ks, char *key)
{
	if (2 * (ks->n + 1) > ks->cap) {
		struct keyset grown = {.cap = ks->cap ? ks->cap * 2 : 16, .n = ks->n};
		size_t i;

		grown.slots = calloc(grown.cap, sizeof(*grown.slots));
		if (!grown.slots)
			return -ENOMEM;
		for (i = 0; i < ks->cap; i++)
			if (ks->slots[i].key)
				*keyset_slot(&grown, ks->slots[i].key) = ks->slots[i];
		free(ks->slots);
		*ks = grown;
	}
	keyset_slot(ks, key)->key = key;
	ks->n++;
	return 0;
}

/* Records that the output from here on is `more` bytes longer than the input. */
static void rj_shift(struct rj *r, size_t more)
{
	struct relaxed_json_map *m = &r->map;
	size_t added = (m->nr_shifts ? m->shifts[m->nr_shifts - 1].added : 0) + more;

	if (m->nr_shifts == r->cap_shifts) {
		size_t cap = r->cap_shifts ? r->cap_shifts * 2 : 64;
		struct relaxed_json_shift *ns = realloc(m->shifts, cap * sizeof(*ns));

		if (!ns) {
			r->shift_oom = true;
			return;
		}
		m->shifts = ns;
		r->cap_shifts = cap;
	}
	m->shifts[m->nr_shifts++] =
	    (struct relaxed_json_shift){.out_pos = r->out.len, .added = added};
}

/*
 * Writes the key token s[start, end) (quotes included), made unique within its object by
 * appending the mark and the lowest repeat number not used yet.
 */
static int rj_emit_key(struct rj *r, struct keyset *ks, size_t start, size_t end)
{
	size_t inner = end - start - 2;
	char *key = malloc(inner + 32);
	struct keyslot *first;
	unsigned n;

	if (!key)
		return -ENOMEM;
	memcpy(key, r->s + start + 1, inner);
	key[inner] = '\0';
	first = keyset_find(ks, key);
	if (first) {
		/* Start after the repeats already written; the loop only runs again on a
		 * collision with a key the file itself wrote with the escaped mark. */
		for (n = first->repeats + 1;; n++) {
			/* RELAXED_DUP_MARK written as a JSON escape */
			snprintf(key + inner, 32, "\\u001f%u", n);
			if (!keyset_find(ks, key))
				break;
		}
		first->repeats = n;
	}
	if (keyset_add(ks, key)) {
		free(key);
		return -ENOMEM;
	}
	sb_addc(&r->out, '"');
	sb_add(&r->out, key, strlen(key));
	sb_addc(&r->out, '"');
	if (first)
		rj_shift(r, strlen(key) - inner);
	return 0;
}

/* After a member: a comma (written only when another member follows) or the closing char. */
static int rj_separator(struct rj *r, char close, bool *done)
{
	int ret = rj_skip_blank(r);

	if (ret)
		return ret;
	*done = false;
	if (rj_peek(r, 0) == ',') {
		size_t comma = r->out.len;

		sb_addc(&r->out, ',');
		r->pos++;
		ret = rj_skip_blank(r);
		if (ret)
			return ret;
		if (rj_peek(r, 0) == close) {
			*done = true; /* a trailing comma becomes a blank */
			if (!r->out.oom)
				r->out.p[comma] = ' ';
		}
		return 0;
	}
	if (rj_peek(r, 0) == close) {
		*done = true;
		return 0;
	}
	if (rj_eof(r))
		return rj_fail(r, close == '}' ? "unterminated object" : "unterminated array");
	return rj_fail(r, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

static int rj_object_members(struct rj *r, struct keyset *ks)
{
	bool done = false;
	int ret = rj_skip_blank(r);

	if (ret)
		return ret;
	if (rj_peek(r, 0) == '}')
		return 0;
	while (!done) {
		size_t start;
		bool bare;

		if (rj_eof(r))
			return rj_fail(r, "unterminated object");
		if (rj_peek(r, 0) != '"')
			return rj_fail(r, "expected a key in double quotes");
		if (ks->n >= RELAXED_MAX_KEYS)
			return rj_fail(
			    r, "more than " RELAXED_STR(
				   RELAXED_MAX_KEYS) " keys in one object (RELAXED_MAX_KEYS)");
		ret = rj_string_extent(r, &start);
		if (!ret)
			ret = rj_emit_key(r, ks, start, r->pos);
		if (!ret)
			ret = rj_skip_blank(r);
		if (ret)
			return ret;
		/* A key followed by ',' or '}' is workgen's bare key ("suspend"): value null. */
		bare = rj_peek(r, 0) == ',' || rj_peek(r, 0) == '}';
		if (!bare && rj_peek(r, 0) != ':')
			return rj_fail(r, "expected ':' after a key");
		sb_addc(&r->out, ':');
		if (bare) {
			sb_add(&r->out, "null", 4);
			rj_shift(r, 5);
		} else {
			r->pos++;
			ret = rj_value(r);
			if (ret)
				return ret;
		}
		ret = rj_separator(r, '}', &done);
		if (ret)
			return ret;
	}
	return 0;
}

static int rj_object(struct rj *r)
{
	struct keyset ks = {0};
	int ret;

	sb_addc(&r->out, '{');
	r->pos++;
	ret = rj_object_members(r, &ks);
	keyset_free(&ks);
	if (ret)
		return ret;
	sb_addc(&r->out, '}');
	r->pos++;
	return 0;
}

static int rj_array(struct rj *r)
{
	bool done = false;
	int ret;

	sb_addc(&r->out, '[');
	r->pos++;
	ret = rj_skip_blank(r);
	if (ret)
		return ret;
	if (rj_peek(r, 0) != ']') {
		while (!done) {
			ret = rj_value(r);
			if (!ret)
				ret = rj_separator(r, ']', &done);
			if (ret)
				return ret;
		}
	}
	sb_addc(&r->out, ']');
	r->pos++;
	return 0;
}

static int rj_value(struct rj *r)
{
	size_t start;
	char c;
	int ret = rj_skip_blank(r);

	if (ret)
		return ret;
	if (rj_eof(r))
		return rj_fail(r, "unexpected end of input, expected a value");
	c = r->s[r->pos];
	if (c == '{' || c == '[') {
		if (r->depth >= RELAXED_MAX_DEPTH)
			return rj_fail(r, "nested too deeply");
		r->depth++;
		ret = c == '{' ? rj_object(r) : rj_array(r);
		r->depth--;
		return ret;
	}
	if (c == '"') {
		ret = rj_string_extent(r, &start);
		if (!ret)
			sb_add(&r->out, r->s + start, r->pos - start);
		return ret;
	}
	if (!is_scalar_char(c))
		return rj_fail(r, "unexpected character, expected a value");
	/* Numbers, true, false, null: copied as written, jansson judges them. */
	start = r->pos;
	while (!rj_eof(r) && is_scalar_char(r->s[r->pos]))
		r->pos++;
	sb_add(&r->out, r->s + start, r->pos - start);
	return 0;
}

int relaxed_json_to_strict(const char *text, size_t len, char **out, size_t *out_len,
			   struct relaxed_json_map *map, struct gb_err *err)
{
	struct rj r = {.s = text, .len = len, .err = err};
	int ret;

	*out = NULL;
	*out_len = 0;
	ret = rj_value(&r);
	if (!ret)
		ret = rj_skip_blank(&r);
	if (!ret && !rj_eof(&r))
		ret = rj_fail(&r, "unexpected text after the end of the document");
	if (!ret && (r.out.oom || (map && r.shift_oom)))
		ret = gb_err_set(err, ENOMEM, "out of memory");
	if (ret == -ENOMEM)
		gb_err_set(err, ENOMEM, "out of memory");
	if (ret || !map)
		relaxed_json_map_free(&r.map);
	if (ret) {
		free(r.out.p);
		return ret;
	}
	if (map)
		*map = r.map;
	*out = r.out.p;
	*out_len = r.out.len;
	return 0;
}
