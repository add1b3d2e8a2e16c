// base.js: the base every game module builds on. defineGame(spec) takes what a game has of its own
// (its board, its notation, its words) and fills in the parts of the contract that read the same in
// every game, so a game module writes only what differs: the shell (room.js, lobby.js, archive.js,
// rules.js) calls the contract below and never a game by name. docs/ADDING-A-GAME.md walks a game
// through it.
//
// The contract of a game module (the default export of games/<id>/<id>.js):
//   id                  the server's game id, the name of its folder games/<id>/
//   label               its name in English; people see t('label')
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
//                       ctx.preview(action) (what one of the seat's legal actions would do, from the
//                       local rules module: {view, outcome} as the server would send them, or null when
//                       there is no preview: draw without it; it sends nothing, and the next state
//                       replaces it), ctx.reducedMotion() (no animation when true). update() is called with every
//                       `state` of the room: the view keeps what it built and what the player has half-done
//                       (a selected piece) while that is still legal; it marks the last move on the board
//                       and animates it (unless reducedMotion). highlight(entry) marks a log entry's cells
//                       (entry as in core.js roomLog; null clears). Every clickable part carries data-click
//                       (common.js clickable()): the shell moves focus among them with the arrow keys and
//                       puts focus back on the board after every state. The replay's analysis board
//                       (analysis.js) creates the same view with states the rules module derives: there
//                       ctx.mySeat() is the seat to act and ctx.act(action) plays it on the page, sending nothing.
//   describeAction(action, state) -> text: a legal action before it is made, in the board's notation (the
//                       shell announces a seat's only possible action with it, then plays it)
//   notation(entry)     -> text: a log entry of kind 'action' in the board's notation, who included
//                       ("Light  K4 → M1 ✕1"); the shell writes the other kinds (seats, start, end)
//   describeBoard(state) -> [text]: the whole board in words for screen readers: every piece of every seat,
//                       what waits and what is home, whose turn, the dice
//   legend()            -> [{mark: Node | string, text}]: the key to the board and dice, shown beside the
//                       board and on the rules page
//   shortcuts           [{key, token, label}]: keys that click the element with data-click=token ("r" rolls)
//   describeLast(state) -> text: the latest action and its outcome, for people
//   describeResult(state) -> {text, winners: [seat]}: the result of a finished match
//   clicksFor(action, state) -> [selector] | null: the browser-test contract. The elements to click, in
//                       order, for this player to make `action` (one of state.legal) in the current view;
//                       null if the view offers no way to make it. Elements that take part carry
//                       data-click (common.js clickable()), so games with hundreds of legal actions
//                       need no element per action.
//
// What defineGame() fills in when the spec leaves it out:
//   roleLabel           t('role.<role>')
//   optionsForm, describeOptions   none; with `autoroll: true` in the spec, the "roll for me" checkbox
//                       (t('opt.autoroll'), ticked) and its tag t('opt.autorollTag')
//   describeAction      notation() of the action by the seat to act, with no outcome yet
//   describeLast        notation() of state.last; before the first action, t('last.first') if the game's
//                       catalogue has it, else nothing
//   describeResult      from spec.resultReasons, the reasons the catalogue has a `result.<reason>` for
//                       ({role}: the winner's role), the first one for a reason it does not know;
//                       `result.draw` without a winner
//   shortcuts           none
//   seatLabel           roleLabel() of the seat's role
//   seatOut             false: no seat is ever out of play before the match ends
//   concerns            the seat's own actions, and in a game of two seats every action (the other
//                       seat's move is always a move against this one)
//   dice                true
// notation() receives {seat, action, outcome, view, prev} (prev: the view before, or null).
//
// Optional parts of the contract (defineGame gives those above a default; a game without a tutorial has none):
//   seatLabel(seat)     -> text: a seat for people, naming its colour where roles repeat ("Red hunter",
//                       "Cazador rojo"); the shell names seats only through it (seats list, announcements,
//                       turn text, results, archive, create form)
//   seatOut(state, seat) -> bool: the seat is out of play in a match still going (a Quinteto hunter
//                       eliminated or resigned): the room marks it "out" and hides its Resign
//   concerns(entry, seat) -> bool: a log entry of kind 'action' (core.js roomLog) touches `seat` (its
//                       pieces or stones taken, moved or set back, its seat eliminated). The room's live
//                       region says only what concerns the listener's seat; the log shows everything
//   dice                boolean: false for a game without dice (no dice seed, no "Fair dice", no
//                       client_seed field in the room or the create form)
//   tutorial            () => import('./tutorial.js'): a guided first match (#/learn/<id>)

import { h } from '../dom.js';

// What every module must have (checked by a browser test, and by the catalogue test for strings/rules).
export const CONTRACT = {
  strings: ['id', 'label'],
  objects: ['strings', 'rules'],
  arrays: ['roles', 'shortcuts'],
  functions: ['t', 'roleLabel', 'optionsForm', 'describeOptions', 'createView', 'describeAction',
    'notation', 'describeBoard', 'legend', 'describeLast', 'describeResult', 'clicksFor', 'seatLabel', 'seatOut',
    'concerns'],
};

// The "roll the dice for me" checkbox of a game's "New room" form, ticked by default (the protocol's
// default is false, so the client sends it either way): {input, label}.
export function autorollInput(t) {
  const input = h('input#autoroll', { type: 'checkbox', name: 'autoroll', checked: true });
  return { input, label: h('label.check', { for: 'autoroll' }, input, ' ', t('opt.autoroll')) };
}

// Whose turn it is, for the card beside the seats: waiting, over, yours or another's (by role).
export function turnText(game, state, viewerSeat) {
  const { t } = game;
  const toAct = state.to_act || [];
  if (state.status === 'waiting') return t('turn.waiting');
  if (state.status === 'finished') return t('turn.over');
  if (!toAct.length) return '';
  const role = game.seatLabel(toAct[0]);
  return toAct.includes(viewerSeat) ? t('turn.yours', { role }) : t('turn.other', { role });
}

// The card beside the seats that games of two roles share: whose turn (#turn, classed by the role to
// act) and the last action (#last-outcome), then `more` (nodes of the game's own).
export function turnCard(game, cls, state, viewerSeat, ...more) {
  const toAct = state.to_act || [];
  return h(`div.card.${cls}`,
    h('div.turn', { id: 'turn', class: toAct.length ? `turn-${game.roles[toAct[0]]}` : '' }, turnText(game, state, viewerSeat)),
    h('div.last', { id: 'last-outcome' }, game.describeLast(state)),
    ...more);
}

// The module of a game: `spec` (id, label, roles, strings, t, rules, notation, describeBoard,
// legend, createView, clicksFor, and whatever else it does its own way) over the defaults above.
export function defineGame(spec) {
  const { t, roles } = spec;
  const reasons = spec.resultReasons || [];
  const game = {
    shortcuts: [],
    dice: true,
    roleLabel: (r) => t(`role.${r}`),
    seatLabel: (seat) => game.roleLabel(roles[seat]),
    seatOut: () => false,
    concerns: (entry, seat) => entry.seat === seat || roles.length === 2,
    optionsForm() {
      if (!spec.autoroll) return { el: h('div.options'), value: () => ({}) };
      const autoroll = autorollInput(t);
      return { el: h('div.options', autoroll.label), value: () => ({ autoroll: autoroll.input.checked }) };
    },
    describeOptions(options) {
      return spec.autoroll && options && options.autoroll ? [t('opt.autorollTag')] : [];
    },
    describeAction(action, state) {
      return game.notation({ seat: (state.to_act || [])[0], action, outcome: {}, view: state.view, prev: state.view });
    },
    describeLast(state) {
      const last = state && state.last;
      if (!last) return state && state.status === 'playing' && t.has('last.first') ? t('last.first') : '';
      return game.notation({ seat: last.seat, action: last.action, outcome: last.outcome, view: state.view, prev: null });
    },
    describeResult(state) {
      const r = state && state.result;
      if (!r) return { text: '', winners: [] };
      if (r.winner === null || r.winner === undefined) return { text: t('result.draw'), winners: [] };
      const key = reasons.includes(r.reason) ? r.reason : reasons[0];
      return { text: t(`result.${key}`, { role: game.seatLabel(r.winner) }), winners: [r.winner] };
    },
    ...spec,
  };
  delete game.autoroll;
  delete game.resultReasons;
  return game;
}
