// dice.js: how each game's actions read the dice stream, for the in-browser verifier (verify.js);
// one import and one line per game. A checker is async (action, outcome, stream) -> null when the
// action drew what its outcome records (or drew nothing), else {field, archive, derived}. It is
// written from the game's rules text (protocol/games/<id>/README.md), never from
// the server's C, so the two can disagree only if one of them is wrong. A game without a line here
// is still checked for its commit and seeds; its rolls are not.

import ur from './ur/dice.js';
import quinteto from './quinteto/dice.js';
import laquet from './laquet/dice.js';

// A game that draws no dice at all (protocol/games/super15/README.md has none): every action is checked as drawing nothing.
const noDice = async () => null;

export const DICE = {
  ur,
  quinteto,
  laquet,
  super15: noDice,
};

export function diceChecker(game) {
  return DICE[game] || null;
}
