/*
 * room_text.c: a log entry's texts without a tree (see room_text.h).
 */
#include "room/room_text.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define SORT_MEMBERS_MAX 32
#define SORT_DEPTH_MAX   32

struct text_member {
	const char *key; /* the key's bytes, without its quotes */
	size_t len;
	const char *value, *end; /* the member's value: [value, end) */
};

/* As json_out.c orders members: memcmp over the key bytes, the shorter key first on a tie. */
static int member_cmp(const struct text_member *a, const struct text_member *b)
{
	int r = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);

	return r ? r : (a->len > b->len) - (a->len < b->len);
}

/* The end of the string that starts at p ('"'), past its closing quote; NULL if it does not end. */
static const char *string_end(const char *p, const char *end, bool *escaped)
{
	for (p++; p < end; p++) {
		if (*p == '"')
			return p + 1;
		if (*p == '\\') {
			*escaped = true;
			p++;
		}
	}
	return NULL;
}

static const char *value_end(const char *p, const char *end, int depth);

/* The end of the array or object that starts at p; NULL if it is not well formed. */
static const char *container_end(const char *p, const char *end, int depth)
{
	char close = *p == '[' ? ']' : '}';
	bool escaped = false;

	if (depth > SORT_DEPTH_MAX)
		return NULL;
	if (++p < end && *p == close)
		return p + 1;
	while (p < end) {
		if (close == '}') {
			if (*p != '"' || !(p = string_end(p, end, &escaped)) || p >= end || *p++ != ':')
				return NULL;
		}
		if (!(p = value_end(p, end, depth + 1)) || p >= end)
			return NULL;
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
	return NULL;
}

/* The end of the value that starts at p; NULL if it is not well formed. */
static const char *value_end(const char *p, const char *end, int depth)
{
	bool escaped = false;

	if (p >= end)
		return NULL;
	if (*p == '"')
		return string_end(p, end, &escaped);
	if (*p == '[' || *p == '{')
		return container_end(p, end, depth);
	while (p < end && *p != ',' && *p != ']' && *p != '}') /* a number, true, false or null */
		p++;
	return p;
}

static int sort_value(struct json_out *o, const char *p, const char *end, int depth);

/* Appends the object [p, end) with its members sorted. */
static int sort_object(struct json_out *o, const char *p, const char *end, int depth)
{
	struct text_member m[SORT_MEMBERS_MAX], x;
	size_t n = 0, k;
	int err;

	for (p++; p < end - 1; p++) { /* p at a key; members end with ',' or the closing '}' */
		bool escaped = false;

		x.key = p + 1;
		if (!(p = string_end(p, end, &escaped)) || escaped || n == SORT_MEMBERS_MAX)
			return -EINVAL; /* a key with an escape would sort by its decoded bytes */
		x.len = (size_t)(p - 1 - x.key);
		x.value = ++p; /* past the ':' */
		if (!(x.end = value_end(p, end, depth + 1)))
			return -EINVAL;
		for (k = n; k > 0 && member_cmp(&m[k - 1], &x) > 0; k--) /* insertion sort: a handful */
			m[k] = m[k - 1];
		m[k] = x;
		n++;
		p = x.end;
	}
	err = json_out_bytes(o, "{", 1);
	for (k = 0; k < n && !err; k++) {
		if (k)
			err = json_out_bytes(o, ",", 1);
		if (!err)
			err = json_out_bytes(o, m[k].key - 1, m[k].len + 3); /* "key": */
		if (!err)
			err = sort_value(o, m[k].value, m[k].end, depth + 1);
	}
	return err ? err : json_out_bytes(o, "}", 1);
}

/* Appends the array [p, end), its elements' objects sorted. */
static int sort_array(struct json_out *o, const char *p, const char *end, int depth)
{
	int err = json_out_bytes(o, "[", 1);

	for (p++; !err && p < end - 1;) {
		const char *e = value_end(p, end, depth + 1);

		if (!e)
			return -EINVAL;
		err = sort_value(o, p, e, depth + 1);
		if (!err && *e == ',')
			err = json_out_bytes(o, ",", 1);
		p = e + 1;
	}
	return err ? err : json_out_bytes(o, "]", 1);
}

/* Appends the value [p, end); containers are well formed (value_end() checked them). */
static int sort_value(struct json_out *o, const char *p, const char *end, int depth)
{
	if (depth > SORT_DEPTH_MAX)
		return -EINVAL;
	if (*p == '{')
		return sort_object(o, p, end, depth);
	if (*p == '[')
		return sort_array(o, p, end, depth);
	return json_out_bytes(o, p, (size_t)(end - p));
}

int room_text_sort(struct json_out *o, const char *in, size_t n)
{
	const char *end = in + n;
	size_t len = o->len;
	int err;

	if (!n || value_end(in, end, 0) != end)
		return -EINVAL;
	if ((err = sort_value(o, in, end, 0))) {
		o->len = len;
		if (o->p)
			o->p[len] = '\0';
	}
	return err;
}

/*
 * The writer's bytes (in tree order) go to a scratch buffer of the thread,
 * then sorted into `o`; a text the sort declines is made from the tree.
 */
static _Thread_local struct json_out scratch;

static int sorted_or_tree(struct json_out *o, int err, json_t *(*tree)(const void *), const void *arg)
{
	json_t *j;

	if (!err && (err = room_text_sort(o, scratch.p, scratch.len)) != -EINVAL)
		return err;
	if (!(j = tree(arg)))
		return -ENOMEM;
	err = json_out_value(o, j, JSON_OUT_SORT_KEYS);
	json_decref(j);
	return err;
}

struct action_arg {
	const struct wire_game *g;
	const struct rules_match *m;
	const struct rules_action *a;
	const union rules_outcome *oc;
};

static json_t *action_tree(const void *arg)
{
	const struct action_arg *x = arg;

	return x->g->action_encode(x->a);
}

static json_t *outcome_tree(const void *arg)
{
	const struct action_arg *x = arg;

	return x->g->outcome_encode(x->m, x->a, x->oc);
}

int room_action_text(struct json_out *o, const struct wire_game *g, const struct rules_action *a)
{
	struct action_arg x = { g, NULL, a, NULL };

	scratch.len = 0;
	return sorted_or_tree(o, wire_action_out(&scratch, g, a), action_tree, &x);
}

int room_outcome_text(struct json_out *o, const struct wire_game *g, const struct rules_match *m,
		      const struct rules_action *a, const union rules_outcome *oc)
{
	struct action_arg x = { g, m, a, oc };

	scratch.len = 0;
	return sorted_or_tree(o, wire_outcome_out(&scratch, g, m, a, oc), outcome_tree, &x);
}
