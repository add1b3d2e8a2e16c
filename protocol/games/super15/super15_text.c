/*
 * super15_text.c: Super 1 al 5's JSON straight to bytes (text.h), the same
 * bytes as super15_wire.c's jansson codec dumped compact
 * (tests/unit/text_codecs.c checks it), and a view read back into a match for
 * the browser's preview. The view shows the whole position (every piece on the
 * board with its value, points and Super flag, and the quiet count); whose
 * turn it is comes from to_act, or from the ply's parity once the match is
 * over (Light moves first and the seats alternate). Pure C: built into the
 * WebAssembly rules module too.
 */
#include <string.h>

#include "text.h"

static void square(struct jw *w, int sq)
{
	char buf[4];

	jw_str(w, super15_square_name(sq, buf));
}

/* {pieces:[{id, seat, square, value, points, super}] by id, captured ones left out, quiet}. */
static void super15_view(struct jw *w, const struct rules_match *m)
{
	const struct super15_state *s = &m->s.super15;

	jw_obj(w);
	jw_key(w, "pieces");
	jw_arr(w);
	for (int id = 0; id < SUPER15_PIECES; id++) {
		const struct super15_piece *p = &s->pieces[id];

		if (p->square == SUPER15_NONE)
			continue;
		jw_obj(w);
		jw_key(w, "id");
		jw_int(w, id);
		jw_key(w, "seat");
		jw_int(w, id >= SUPER15_SIDE);
		jw_key(w, "square");
		square(w, p->square);
		jw_key(w, "value");
		jw_int(w, p->value);
		jw_key(w, "points");
		jw_int(w, p->points);
		jw_key(w, "super");
		jw_bool(w, p->super);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "quiet");
	jw_int(w, s->quiet);
	jw_obj_end(w);
}

/* {"from":..,"to":..}; an unknown kind or a square off the board: as the jansson codec's NULL. */
static void super15_action(struct jw *w, const struct rules_action *a)
{
	if (a->kind != SUPER15_ACT_MOVE || a->arg[0] < 0 || a->arg[0] >= SUPER15_SQUARES || a->arg[1] < 0 ||
	    a->arg[1] >= SUPER15_SQUARES) {
		w->full = true;
		return;
	}
	jw_obj(w);
	jw_key(w, "from");
	square(w, a->arg[0]);
	jw_key(w, "to");
	square(w, a->arg[1]);
	jw_obj_end(w);
}

/*
 * {piece, captured:[{id, square, value, points, super}], gained, promoted}:
 * `m` is the match after the move, where a captured piece keeps its value,
 * points and flag as they were when it was taken.
 */
static void super15_outcome(struct jw *w, const struct rules_match *m, const struct rules_action *a,
			    const union rules_outcome *o)
{
	const struct super15_outcome *u = &o->super15;
	const struct super15_state *s = &m->s.super15;

	(void)a;
	jw_obj(w);
	jw_key(w, "piece");
	jw_int(w, u->piece);
	jw_key(w, "captured");
	jw_arr(w);
	for (int i = 0; i < u->captured && i < SUPER15_MAX_CAPTURE; i++) {
		const struct super15_piece *p = &s->pieces[u->captured_id[i]];

		jw_obj(w);
		jw_key(w, "id");
		jw_int(w, u->captured_id[i]);
		jw_key(w, "square");
		square(w, u->captured_sq[i]);
		jw_key(w, "value");
		jw_int(w, p->value);
		jw_key(w, "points");
		jw_int(w, p->points);
		jw_key(w, "super");
		jw_bool(w, p->super);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "gained");
	jw_int(w, u->gained);
	jw_key(w, "promoted");
	jw_bool(w, u->promoted);
	jw_obj_end(w);
}

static void super15_result(struct jw *w, const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_LAST_PIECE] = "last_piece",     [RULES_REASON_NO_MOVES] = "no_moves",
		[RULES_REASON_ADJUDICATION] = "adjudication", [RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	text_result(w, r, reasons, sizeof(reasons) / sizeof(reasons[0]), true); /* a draw: winner < 0 */
}

/* The square string token t names ("a1" .. "h10", as super15_square_name writes them), or -1. */
static int square_read(const char *text, const struct jr_tok *tok, int t)
{
	const char *c;
	int len, file, rank;

	if (t < 0 || tok[t].type != JR_STR || tok[t].escaped)
		return TEXT_E_BAD_VIEW;
	c = text + tok[t].start;
	len = tok[t].end - tok[t].start;
	if (len < 2 || len > 3 || c[0] < 'a' || c[0] > 'h' || c[1] < '1' || c[1] > '9')
		return TEXT_E_BAD_VIEW;
	file = c[0] - 'a';
	rank = c[1] - '0';
	if (len == 3) {
		if (c[1] != '1' || c[2] != '0')
			return TEXT_E_BAD_VIEW;
		rank = 10;
	}
	return (rank - 1) * SUPER15_FILES + file;
}

static bool forbidden_square(int sq)
{
	int f = sq % SUPER15_FILES, r = sq / SUPER15_FILES;

	return (f == 3 || f == 4) && (r == 4 || r == 5); /* D1: d5, e5, d6, e6 */
}

/*
 * Piece item `t` of the view into s->pieces[], after the piece of id `prev`:
 * ids ascending, the seat its id gives, its fixed value (as s holds it from
 * the start), a free allowed square, points that make it Super once 10.
 * Returns its id, or -1.
 */
static int piece_read(struct super15_state *s, const char *text, const struct jr_tok *tok, int t, int prev,
		      const uint8_t *occupied)
{
	long long id, seat, value, points;
	int sq;
	bool super;

	if (t < 0 || tok[t].type != JR_OBJ || tok[t].n != 6 ||
	    jr_int(tok, jr_get(text, tok, t, "id"), prev + 1, SUPER15_PIECES - 1, &id) ||
	    jr_int(tok, jr_get(text, tok, t, "seat"), 0, 1, &seat) ||
	    jr_int(tok, jr_get(text, tok, t, "value"), 1, 5, &value) ||
	    jr_int(tok, jr_get(text, tok, t, "points"), 0, 255, &points) ||
	    jr_bool(tok, jr_get(text, tok, t, "super"), &super))
		return TEXT_E_BAD_VIEW;
	sq = square_read(text, tok, jr_get(text, tok, t, "square"));
	if (seat != (id >= SUPER15_SIDE) || value != s->pieces[id].value || sq < 0 || forbidden_square(sq) ||
	    occupied[sq] || (points >= SUPER15_SUPER_POINTS && !super))
		return TEXT_E_BAD_VIEW;
	s->pieces[id].square = (uint8_t)sq;
	s->pieces[id].points = (uint8_t)points;
	s->pieces[id].super = super;
	return (int)id;
}

/*
 * A finished match: the view does not carry the result (the state message's
 * `result` does), so it is told from the position as the rules core ends a
 * match after a ply (super15.c, ply_end), the seat to move being the one the
 * ply's parity gives: last piece, then adjudication (no_moves cannot happen
 * with the values 1..5 this game deals, README D6). A position that ended
 * neither way ended by an event: taken as the resignation of the seat to move
 * (a forfeit on the clock is also its).
 */
static void end_read(struct rules_match *m)
{
	struct super15_state *s = &m->s.super15;
	int turn = s->turn;

	if (s->count[turn] <= 1) {
		super15_match_end(s, turn ^ 1, RULES_REASON_LAST_PIECE);
	} else if ((s->quiet >= SUPER15_QUIET_SMALL && s->count[0] == s->count[1] &&
		    s->count[0] <= SUPER15_SMALL) ||
		   s->quiet >= SUPER15_QUIET_MAX) {
		int p0 = super15_points_on_board(s, 0), p1 = super15_points_on_board(s, 1);

		super15_match_end(s, p0 == p1 ? -1 : p0 > p1 ? 0 : 1, RULES_REASON_ADJUDICATION);
	} else {
		super15_match_end(s, turn ^ 1, RULES_REASON_RESIGN);
		m->out = (uint8_t)(1u << turn);
	}
}

/*
 * The view is the whole position: the pieces on the board (the others are
 * captured; a captured piece keeps its fixed value, its points are not shown
 * and count nowhere) and the quiet count. The seat to move is to_act's, or
 * once the match is over the ply's parity. There is one kind of move, so the
 * legal list tells nothing more.
 */
static int super15_view_read(struct rules_match *m, const char *text, const struct jr_tok *tok, int view,
			     int legal, const uint8_t *to_act, int nto_act)
{
	struct super15_state *s = &m->s.super15;
	int p = jr_get(text, tok, view, "pieces"), prev = -1;
	uint8_t occupied[SUPER15_SQUARES] = { 0 };
	long long quiet;

	(void)legal;
	if (nto_act < 0 || nto_act > 1 || (nto_act == 1 && to_act[0] > 1) || view < 0 ||
	    tok[view].type != JR_OBJ || tok[view].n != 2 || p < 0 || tok[p].type != JR_ARR ||
	    tok[p].n > SUPER15_PIECES ||
	    jr_int(tok, jr_get(text, tok, view, "quiet"), 0, SUPER15_QUIET_MAX, &quiet))
		return TEXT_E_BAD_VIEW;
	for (int id = 0; id < SUPER15_PIECES; id++) {
		s->pieces[id].square = SUPER15_NONE;
		s->pieces[id].points = 0;
		s->pieces[id].super = 0;
	}
	for (int i = 0; i < tok[p].n; i++) {
		prev = piece_read(s, text, tok, jr_item(tok, p, i), prev, occupied);
		if (prev < 0)
			return TEXT_E_BAD_VIEW;
		occupied[s->pieces[prev].square] = 1;
	}
	super15_state_sync(s);
	s->quiet = (uint8_t)quiet;
	s->turn = nto_act ? to_act[0] : (uint8_t)(m->ply & 1);
	s->over = 0;
	s->draw = 0;
	s->winner = -1;
	s->reason = RULES_REASON_NONE;
	m->out = 0;
	if (!nto_act)
		end_read(m);
	return 0;
}

const struct text_game text_game_super15 = {
	.id = "super15",
	.view = super15_view,
	.action = super15_action,
	.outcome = super15_outcome,
	.result = super15_result,
	.view_read = super15_view_read,
};
