// registry.js: the games this client can show, one line per game module. Adding a game is adding
// its folder under games/ and one import plus one entry here; room.js, lobby.js and rules.js never
// name a game.
//
// The contract of a game module (games/ur/ur.js is the worked example; docs/ADDING-A-GAME.md):
//   id                  the server's game id ("ur")
//   label               its name in English ("Royal Game of Ur"); people see t('label')
//   roles               the role of each seat, in seat order (["light", "dark"])
//   strings             {en, es, pt}: the game's catalogues (games/<id>/strings.js). Required keys:
//                       `label`, `role.<role>` for every role. A test fails if a key is missing in a language.
//   t(key, vars)        the game's translator: translator(strings) from i18n.js (its catalogue, then the shell's)
//   rules               {en, es, pt}: the rules page, in the light markup rules.js draws ("# ", "## ",
//                       "- ", "| a | b |" rows, **bold**, blank lines between paragraphs); from protocol/games/<id>/README.md
//   roleLabel(role)     the role for people ("Light", "Claro")
//   optionsForm()       -> {el, value()}: the inputs of the "New room" form for this game; value() is the
//                       `options` object to send with `create`. A game with a "roll for me" option ticks it by
//                       default (the protocol's default stays false: the client sends it).
//   describeOptions(o)  -> [short text]: a room's options (`state.options`, a summary's `options`)
//   createView(ctx)     -> {update(state), destroy(), highlight(entry | null)}: the game's part of the room
//                       view. ctx gives it three empty elements it owns, ctx.board (the board), ctx.side
//                       (beside the seats) and ctx.panel (under the board: dice, buttons, a hand), plus
//                       ctx.mySeat() (this player's seat or null), ctx.act(action) (sends it),
//                       ctx.reducedMotion() (no animation when true). update() is called with every
//                       `state` of the room: the view keeps what it built and what the player has half-done
//                       (a selected piece) while that is still legal; it marks the last move on the board
//                       and animates it (unless reducedMotion). highlight(entry) marks a log entry's cells
//                       (entry as in core.js roomLog; null clears). Every clickable part carries data-click
//                       (common.js clickable()): the shell moves focus among them with the arrow keys and
//                       puts focus back on the board after every state.
//   describeAction(action, state) -> text: a legal action before it is made, in the board's notation (the
//                       shell announces a seat's only possible action with it, then plays it)
//   notation(entry)     -> text: a log entry of kind 'action' in the board's notation, who included
//                       ("Light  K4 → M1 ✕1"); the shell writes the other kinds (seats, start, end)
//   describeBoard(state) -> [text]: the whole board in words for screen readers: every piece of every seat,
//                       what waits and what is home, whose turn, the dice
//   legend()            -> [{mark: Node | string, text}]: the key to the board and dice, shown beside the
//                       board and on the rules page
//   shortcuts           [{key, token, label}]: keys that click the element with data-click=token (ur: "r" rolls)
//   describeLast(state) -> text: the latest action and its outcome, for people
//   describeResult(state) -> {text, winners: [seat]}: the result of a finished match
//   clicksFor(action, state) -> [selector] | null: the browser-test contract. The elements to click, in
//                       order, for this player to make `action` (one of state.legal) in the current view;
//                       null if the view offers no way to make it. Elements that take part carry
//                       data-click (common.js clickable()), so games with hundreds of legal actions
//                       need no element per action.

import ur from './ur/ur.js';
import quinteto from './quinteto/quinteto.js';
import laquet from './laquet/laquet.js';
import super15 from './super15/super15.js';

export const GAMES = [
  ur,
  quinteto,
  laquet,
  super15,
];

// What every module must have (checked by a browser test, and by the catalogue test for strings/rules).
export const CONTRACT = {
  strings: ['id', 'label'],
  objects: ['strings', 'rules'],
  arrays: ['roles', 'shortcuts'],
  functions: ['t', 'roleLabel', 'optionsForm', 'describeOptions', 'createView', 'describeAction', 'notation',
    'describeBoard', 'legend', 'describeLast', 'describeResult', 'clicksFor'],
};

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

// The module of game `id`, or null if this client cannot show it.
export function gameModule(id) {
  return BY_ID.get(id) || null;
}

// A game's name for people, in the current language; the id itself for a game this client does not know.
export function gameLabel(id) {
  const m = BY_ID.get(id);
  return m ? m.t('label') : id;
}
