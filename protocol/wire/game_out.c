/*
 * game_out.c: a game's parts of a frame written to bytes (wire.h,
 * wire_view_out() and the others): with the game's text codec
 * (protocol/text/text.h, a writer straight to bytes) when its wire codec names
 * one, else through its tree, which stays the definition. The text codec
 * writes into the free end of the caller's json_out; what does not fit is
 * written again after the buffer has grown (rare: the buffers are reused and
 * keep their size).
 */
#include <errno.h>

#include "json_out.h"
#include "text.h"
#include "wire.h"

/* Larger than any part a game writes (a view is a few KB). */
#define TEXT_OUT_MAX (16u << 20)

/* Which part, and what it is written from. */
struct part {
	enum { PART_VIEW, PART_ACTION, PART_OUTCOME, PART_RESULT, PART_LEGAL } kind;
	const struct rules_match *m;
	const struct rules_action *a;
	const union rules_outcome *oc;
	const struct rules_result *r;
	int n; /* PART_LEGAL: actions a[0..n) */
};

static void part_write(const struct text_game *t, struct jw *w, const struct part *p)
{
	int i;

	switch (p->kind) {
	case PART_VIEW:
		t->view(w, p->m);
		break;
	case PART_ACTION:
		t->action(w, p->a);
		break;
	case PART_OUTCOME:
		t->outcome(w, p->m, p->a, p->oc);
		break;
	case PART_RESULT:
		t->result(w, p->r);
		break;
	case PART_LEGAL:
		jw_arr(w);
		for (i = 0; i < p->n; i++)
			t->action(w, &p->a[i]);
		jw_arr_end(w);
		break;
	}
}

/* The part by the text codec, into o's free end; grows o and writes again while it does not fit. */
static int text_out(struct json_out *o, const struct text_game *t, const struct part *p)
{
	size_t want = 256;
	struct jw w;

	for (;;) {
		if (o->cap - o->len < want && json_out_grow(o, want))
			return -ENOMEM;
		jw_init(&w, o->p + o->len, o->cap - o->len);
		part_write(t, &w, p);
		if (!w.full)
			break;
		if (o->cap - o->len > TEXT_OUT_MAX)
			return -ENOMEM; /* no part is this long: jw refused it (nested too deep) */
		want = 2 * (o->cap - o->len);
	}
	o->len += w.len; /* jw keeps the NUL after it */
	return 0;
}

/* Writes a codec's tree and frees it; a NULL tree is the codec's failure. */
static int tree(struct json_out *o, json_t *j)
{
	int r = j ? json_out_value(o, j, 0) : -ENOMEM;

	json_decref(j);
	return r;
}

int wire_view_out(struct json_out *o, const struct wire_game *g, const struct rules_match *m)
{
	struct part p = { .kind = PART_VIEW, .m = m };

	return g->text ? text_out(o, g->text, &p) : tree(o, g->view(m));
}

int wire_action_out(struct json_out *o, const struct wire_game *g, const struct rules_action *a)
{
	struct part p = { .kind = PART_ACTION, .a = a };

	return g->text ? text_out(o, g->text, &p) : tree(o, g->action_encode(a));
}

int wire_outcome_out(struct json_out *o, const struct wire_game *g, const struct rules_match *m,
		     const struct rules_action *a, const union rules_outcome *oc)
{
	struct part p = { .kind = PART_OUTCOME, .m = m, .a = a, .oc = oc };

	return g->text ? text_out(o, g->text, &p) : tree(o, g->outcome_encode(m, a, oc));
}

int wire_result_out(struct json_out *o, const struct wire_game *g, const struct rules_result *r)
{
	struct part p = { .kind = PART_RESULT, .r = r };

	return g->text ? text_out(o, g->text, &p) : tree(o, g->result_encode(r));
}

int wire_legal_out(struct json_out *o, const struct wire_game *g, const struct rules_action *a, int n)
{
	struct part p = { .kind = PART_LEGAL, .a = a, .n = n };
	int i, err;

	if (g->text)
		return text_out(o, g->text, &p);
	if (json_out_bytes(o, "[", 1))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (i && json_out_bytes(o, ",", 1))
			return -ENOMEM;
		if ((err = tree(o, g->action_encode(&a[i]))) != 0)
			return err;
	}
	return json_out_bytes(o, "]", 1);
}
