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
	struct gb_err *err;
};

/* The keys already written in one object, as written (quotes and escapes included). */
struct keyset {
	char **keys;
	size_t n, cap;
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

static int rj_fail(struct rj *r, const char *reason)
{
	size_t line = 1, col = 1, i;

	for (i = 0; i < r->pos && i < r->len; i++) {
		if (r->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
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

/* Copies blanks; replaces comments by the newlines they contain so line numbers survive. */
static int rj_skip_blank(struct rj *r)
{
	while (!rj_eof(r)) {
		char c = r->s[r->pos];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			sb_addc(&r->out, c);
			r->pos++;
		} else if (c == '/' && rj_peek(r, 1) == '/') {
			while (!rj_eof(r) && r->s[r->pos] != '\n')
				r->pos++;
		} else if (c == '/' && rj_peek(r, 1) == '*') {
			size_t start = r->pos;

			r->pos += 2;
			while (!rj_eof(r) && !(r->s[r->pos] == '*' && rj_peek(r, 1) == '/')) {
				if (r->s[r->pos] == '\n')
					sb_addc(&r->out, '\n');
				r->pos++;
			}
			if (rj_eof(r)) {
				r->pos = start;
				return rj_fail(r, "unterminated comment");
			}
			r->pos += 2;
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

	for (i = 0; i < ks->n; i++)
		free(ks->keys[i]);
	free(ks->keys);
}

static bool keyset_has(const struct keyset *ks, const char *key)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->keys[i], key))
			return true;
	return false;
}

/* How many keys of the set are repeats of key[0..n): key followed by the escaped mark. */
static unsigned keyset_repeats(const struct keyset *ks, const char *key, size_t n)
{
	unsigned count = 0;
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (!strncmp(ks->keys[i], key, n) && !strncmp(ks->keys[i] + n, "\\u001f", 6))
			count++;
	return count;
}

static int keyset_add(struct keyset *ks, char *key)
{
	if (ks->n == ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 16;
		char **nk = realloc(ks->keys, cap * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		ks->keys = nk;
		ks->cap = cap;
	}
	ks->keys[ks->n++] = key;
	return 0;
}

/*
 * Writes the key token s[start, end) (quotes included), made unique within its object by
 * appending the mark and the lowest repeat number not used yet.
 */
static int rj_emit_key(struct rj *r, struct keyset *ks, size_t start, size_t end)
{
	size_t inner = end - start - 2;
	char *key = malloc(inner + 32);
	unsigned n;

	if (!key)
		return -ENOMEM;
	memcpy(key, r->s + start + 1, inner);
	key[inner] = '\0';
	if (keyset_has(ks, key)) {
		/* Start after the repeats already written, so that a phase of k repeats costs
		 * O(k^2) comparisons, not O(k^3); the loop only runs again on a collision with a
		 * key the file itself wrote with the escaped mark. */
		for (n = keyset_repeats(ks, key, inner) + 1;; n++) {
			/* RELAXED_DUP_MARK written as a JSON escape */
			snprintf(key + inner, 32, "\\u001f%u", n);
			if (!keyset_has(ks, key))
				break;
		}
	}
	if (keyset_add(ks, key)) {
		free(key);
		return -ENOMEM;
	}
	sb_addc(&r->out, '"');
	sb_add(&r->out, key, strlen(key));
	sb_addc(&r->out, '"');
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
			*done = true;     /* a trailing comma becomes a blank */
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
			return rj_fail(r, "too many keys in one object");
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
	struct keyset ks = { 0 };
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
			   struct gb_err *err)
{
	struct rj r = { .s = text, .len = len, .err = err };
	int ret;

	*out = NULL;
	*out_len = 0;
	ret = rj_value(&r);
	if (!ret)
		ret = rj_skip_blank(&r);
	if (!ret && !rj_eof(&r))
		ret = rj_fail(&r, "unexpected text after the end of the document");
	if (!ret && r.out.oom)
		ret = gb_err_set(err, ENOMEM, "out of memory");
	if (ret == -ENOMEM)
		gb_err_set(err, ENOMEM, "out of memory");
	if (ret) {
		free(r.out.p);
		return ret;
	}
	*out = r.out.p;
	*out_len = r.out.len;
	return 0;
}
