/*
 * duo.h: a game that exists only in the server's unit tests. Two seats pick
 * a number (0..2) in each of three rounds, both acting at once: a round's
 * picks may come in either order, like Quinteto's roll-off, which is what the
 * ply exception of protocol.md (r2) is for. An event takes a seat out and the
 * other seat wins.
 */
#ifndef QUINTETO_TEST_DUO_H
#define QUINTETO_TEST_DUO_H

#include "rules.h"
#include "wire.h"

extern const struct rules_game duo_game;
extern const struct wire_game duo_codec;

#endif
