// analysis.js: the analysis board of the replay. From any step of an archived match, the position is derived
// on this page by the rules module (rules-core.js, /wasm/rules.wasm: the server's own C) and drawn by the game's
// own web module, playable for whichever seat is to act: its legal actions come from the module, its board and
// buttons send them through `act`, and the module applies them. The moves played form a variation (a list, each
// move a button back to its position; a move played from an earlier position replaces what followed). A roll's
// dice come from a local seed (random, made in this browser, shown: the dice of the move at ply p are those of
// SHA-256(seed || p as 4 bytes big-endian)) or are chosen among the throws that roll can give, found by trying
// many seeds on a copy of the match; the chosen throw is played by reseeding with the seed that gave it. An
// action is a roll when its outcome depends on the dice stream, so nothing here knows a game.
//
// Nothing of it reaches the server: no request and no socket message after the module is loaded (the same
// module the page already fetched, or the one fetched when the first board opens). The replay is left as it
// was; closing the board gives it back at the step it was opened from.

import { h, clear } from './dom.js';
import { translator } from './i18n.js';
import strings from './i18n/replay.js';
import { reducedMotion } from './core.js';
import { loadRules } from './rules-core.js';
import { derive, stepOrder, bytesHex } from './derive.js';

// This view's words (i18n/replay.js, loaded with it), then the shell's.
const t = translator(strings);

const MODULE_URL = '/wasm/rules.wasm';
const PROBE_SEEDS = 8;      // seeds tried on each legal action to tell a roll from a move
const THROW_QUIET = 256;    // the search for throws stops after this many seeds in a row gave nothing new
const THROW_MOST = 8192;    // ... or after this many seeds in all

let corePromise = null;

// The rules module, loaded once for the page (and tried again after a failure).
export function analysisCore() {
  if (!corePromise) {
    corePromise = loadRules(MODULE_URL);
    corePromise.catch(() => { corePromise = null; });
  }
  return corePromise;
}

function randomSeed() { return crypto.getRandomValues(new Uint8Array(32)); }

// A JSON value for people: true/false as ●/○, arrays as their items spaced (a throw's dice: "● ● ○", "3 5").
function pips(v) {
  if (v === true) return '●';
  if (v === false) return '○';
  if (Array.isArray(v)) return v.map(pips).join(' ');
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k} ${pips(x)}`).join(', ');
  return String(v);
}

// The match at step `step` of the archive: from the replay's own matchAt(step) when it has one (a Match, or a
// match's bytes), else derived here. { match, last } (last: the latest action, as a state's `last`) or
// { error } (the record does not derive up to there).
async function matchAtStep(core, arch, step, matchAt) {
  let match = null;
  if (typeof matchAt === 'function') {
    const got = await matchAt(step);
    if (got instanceof Uint8Array) {
      match = core.newMatch(arch.game, new Uint8Array(32), { max_turns: arch.options?.max_turns || 0 });
      match.restore(got);
    } else if (got && got.core === core) match = got.clone();
    else if (got?.snapshot) { // a Match of another instance of the same module: the same bytes mean the same match
      match = core.newMatch(arch.game, new Uint8Array(32), { max_turns: arch.options?.max_turns || 0 });
      match.restore(got.snapshot());
    }
  }
  if (!match && !Array.isArray(arch.actions)) return { error: { ply: 0 } }; // a summary without the record's moves
  if (!match) {
    const d = derive(core, arch, { until: step });
    if (!d.ok) return { error: d.mismatch };
    match = d.match;
  }
  const order = stepOrder(arch);
  let last = null;
  for (let k = Math.min(step, order.length - 1); k > 0 && !last; k--) {
    if (order[k].kind !== 'action') continue;
    const a = arch.actions[order[k].i];
    last = { seat: a.seat, action: a.action, outcome: a.outcome };
  }
  return { match, last };
}

export class AnalysisBoard {
  // arch: the archive (GET /api/matches/{id}); step: the replay's step to start from; module: the game's web
  // module; matchAt: the replay's matchAt(step) if it has one; onClose(): called by "Back to the game".
  constructor({ arch, step, module, matchAt = null, onClose }) {
    this.arch = arch;
    this.step = step;
    this.module = module;
    this.onClose = onClose;
    this.nodes = [];      // the variation: [{ id, snap, last, dice, seedHex, text, ply }], nodes[0] the game's
    this.nextId = 0;      // position; id: a node's own (a cache key: the node at an index changes)
    this.at = 0;          // the node shown
    this.seat = null;     // the seat played for when several are to act
    this.localSeed = randomSeed();
    this.throwCache = new Map();
    // As in the room: the board a region focus can rest on, described by the game's picture of it in words.
    this.board = h('div.game-board', { tabindex: '-1', role: 'region', 'aria-label': t('room.board'),
      'aria-describedby': 'analysis-words' }, h('p.loading', t('analysis.loading')));
    this.words = h('div#analysis-words.board-words');
    this.panel = h('div.game-panel');
    this.side = h('div.game-side');
    this.heading = h('h1#analysis-title.room-name', { tabindex: '-1' }, t('analysis.title'));
    this.said = h('p#analysis-said.analysis-said', { 'aria-live': 'polite', role: 'status' });
    this.seatPick = h('div#analysis-seat-pick.analysis-seat', { hidden: true });
    this.diceBox = this.diceControls();
    this.moves = h('ol#analysis-moves.log-list', { 'aria-label': t('analysis.variation') });
    this.back = h('button#analysis-close.primary', { type: 'button', onclick: () => this.close() }, t('analysis.back'));
    this.el = h('section#analysis.room.analysis', { 'aria-labelledby': 'analysis-title', 'data-from-step': String(step) },
      h('header.room-head', this.back, this.heading),
      h('p.analysis-note', t('analysis.note')),
      h('div.room-main',
        h('div.game-column', this.board, this.panel, this.said),
        h('aside.room-side', this.side, this.seatPick,
          this.diceBox,
          h('section.card.log', h('h2', t('analysis.variation')), this.moves),
          h('details.card.words', h('summary', t('room.words')), this.words))));
    this.el.classList.add(`game-${module.id}`); // the game's own colours, as in the live room
    this.onKey = (ev) => this.key(ev);
    this.el.addEventListener('keydown', this.onKey);
    this.ready = this.start(matchAt).catch((e) => this.fail(e.message));
  }

  diceControls() {
    const radio = (id, value, checked) => h(`input#${id}`, { type: 'radio', name: 'analysis-dice', value, checked,
      onchange: () => this.renderDice() });
    this.seedRadio = radio('analysis-dice-seed', 'seed', true);
    this.chooseRadio = radio('analysis-dice-choose', 'choose', false);
    this.seedText = h('code#analysis-seed.hash');
    this.throwSel = h('select#analysis-throw', { 'aria-label': t('analysis.throw') });
    this.throwNote = h('p#analysis-throw-note.hint');
    return h('section#analysis-dice.card.analysis-dice', h('h2', t('analysis.dice')),
      h('fieldset', h('legend', t('analysis.diceFrom')),
        h('p', h('label.check', { for: 'analysis-dice-seed' }, this.seedRadio, ' ', t('analysis.diceSeed'))),
        h('p.analysis-seed-row', this.seedText, ' ',
          h('button#analysis-new-seed', { type: 'button', onclick: () => { this.localSeed = randomSeed(); this.renderDice(); } },
            t('analysis.newSeed'))),
        h('p', h('label.check', { for: 'analysis-dice-choose' }, this.chooseRadio, ' ', t('analysis.diceChoose'))),
        h('p', this.throwSel), this.throwNote));
  }

  async start(matchAt) {
    try {
      this.core = await analysisCore();
    } catch (e) {
      this.fail(t('analysis.noModule', { error: e.message }));
      return;
    }
    const got = await matchAtStep(this.core, this.arch, this.step, matchAt);
    if (got.error) {
      this.fail(t('analysis.noDerive', { ply: got.error.ply }));
      return;
    }
    this.m = got.match;
    this.nodes = [{ id: 0, snap: this.m.snapshot(), last: got.last, dice: null, text: null, ply: this.m.ply }];
    this.nextId = 1;
    this.at = 0;
    clear(this.board);
    this.view = this.module.createView({ board: this.board, side: this.side, panel: this.panel,
      mySeat: () => this.actor(), act: (a) => this.act(a), reducedMotion });
    this.heading.textContent = t('analysis.titleAt', { ply: this.m.ply });
    this.show(0);
    this.el.dataset.ready = 'true';
    this.heading.focus();
  }

  fail(text) {
    clear(this.board).append(h('p.notice#analysis-error', text));
    this.el.dataset.ready = 'error';
  }

  // The seat the board plays for: the one picked among those to act, else the first to act, else none.
  actor() {
    const toAct = this.toAct || [];
    return toAct.includes(this.seat) ? this.seat : (toAct[0] ?? null);
  }

  // The position of node k as a room's `state`, for the game's view.
  stateOf(k) {
    const node = this.nodes[k];
    this.m.restore(node.snap);
    this.toAct = this.m.toAct();
    const finished = this.toAct.length === 0;
    const seat = this.actor();
    return { type: 'state', room: `analysis-${this.arch.id}`, game: this.arch.game,
      status: finished ? 'finished' : 'playing', ply: this.m.ply,
      seats: this.arch.seats.map((s) => ({ ...s, connected: true })), to_act: this.toAct, view: this.m.view(),
      legal: seat === null ? [] : this.m.legal(seat), last: node.last, result: finished ? this.m.result() : null,
      commit: this.arch.commit, options: this.arch.options };
  }

  // Shows node k: the board, the seat picker, the dice controls, the variation with k current.
  show(k) {
    this.at = k;
    const focused = document.activeElement?.closest?.('[data-click]')?.dataset.click;
    const focusedNode = this.moves.contains(document.activeElement) ? document.activeElement.dataset.node : null;
    this.state = this.stateOf(k);
    this.view.update(this.state);
    clear(this.words).append(h('ul', this.module.describeBoard(this.state).map((line) => h('li', line))));
    this.renderSeatPick();
    this.renderDice();
    this.renderMoves();
    const d = this.el.dataset;
    d.ply = String(this.state.ply);
    d.node = String(k);
    d.moves = String(this.nodes.length - 1);
    d.status = this.state.status;
    d.legal = JSON.stringify(this.state.legal); // the tests' contract, as data-ply
    // Focus stays where it was: on the same part of the game's board (else the board), or in the variation.
    if (focused) {
      const again = this.el.querySelector(`[data-click="${CSS.escape(focused)}"]`);
      (again || this.board).focus();
    } else if (focusedNode !== null && focusedNode !== undefined) {
      this.moves.querySelector(`[data-node="${focusedNode}"]`)?.focus();
    }
  }

  renderSeatPick() {
    const toAct = this.toAct;
    clear(this.seatPick).hidden = toAct.length < 2;
    if (toAct.length < 2) return;
    const sel = h('select#analysis-seat', { onchange: () => {
      this.seat = Number(sel.value);
      this.show(this.at);
      this.seatPick.querySelector('select')?.focus(); // drawn again: focus stays on the choice
    } },
      ...toAct.map((s) => h('option', { value: String(s), selected: s === this.actor() },
        this.module.roleLabel(this.arch.seats[s]?.role))));
    this.seatPick.append(h('label', { for: 'analysis-seat' }, t('analysis.playAs')), ' ', sel);
  }

  // The distinct outcomes of `action` by `seat` in the match as it is, each with a seed that gives it:
  // [{ seed, outcome, outcomeText, text }], one element for an action the dice do not touch. At most `quiet`
  // seeds in a row that give nothing new (and THROW_MOST in all) are tried.
  throwsOf(seat, action, quiet = THROW_QUIET) {
    const key = `${this.nodes[this.at].id}|${seat}|${JSON.stringify(action)}|${quiet}`;
    if (this.throwCache.has(key)) return this.throwCache.get(key);
    const c = this.m.clone();
    const base = c.snapshot();
    const found = new Map();
    for (let tries = 0, still = 0; still < quiet && tries < THROW_MOST; tries++, still++) {
      const seed = randomSeed();
      c.restore(base);
      c.reseed(seed);
      const r = c.apply(seat, action);
      if (r.error) break;
      if (!found.has(r.outcomeText)) {
        found.set(r.outcomeText, { seed, outcome: r.outcome, outcomeText: r.outcomeText, view: c.view() });
        still = 0;
      }
    }
    this.m.restore(base);
    const list = [...found.values()];
    const texts = list.map((x) => this.module.notation({ kind: 'action', seat, action, outcome: x.outcome, view: x.view,
      prev: this.state.view, ply: this.state.ply + 1 }));
    list.forEach((x, i) => {
      const twin = texts.some((s, j) => j !== i && s === texts[i]);
      x.text = twin ? `${texts[i]} (${pips(x.outcome.dice ?? x.outcome)})` : texts[i];
    });
    list.sort((a, b) => a.text.localeCompare(b.text, undefined, { numeric: true }));
    this.throwCache.set(key, list);
    return list;
  }

  // The seat's legal roll, if it has one: an action whose outcome changes with the seed.
  rollOf(seat) {
    if (seat === null) return null;
    for (const a of this.state.legal) if (this.throwsOf(seat, a, PROBE_SEEDS).length > 1) return a;
    return null;
  }

  renderDice() {
    this.seedText.textContent = bytesHex(this.localSeed);
    const seat = this.actor();
    const roll = this.state ? this.rollOf(seat) : null;
    const prev = this.throwSel.selectedOptions[0]?.dataset.outcome; // the throw chosen stays chosen where it can
    clear(this.throwSel);
    if (roll) {
      this.throwSel.append(...this.throwsOf(seat, roll).map((x, i) =>
        h('option', { value: String(i), 'data-outcome': x.outcomeText, selected: x.outcomeText === prev }, x.text)));
    }
    this.throwSel.disabled = !roll || !this.chooseRadio.checked;
    this.throwSel.hidden = !roll;
    this.throwNote.textContent = roll ? t('analysis.throwNote', { n: this.throwSel.options.length }) : t('analysis.noRoll');
    this.diceBox.dataset.roll = roll ? 'true' : 'false';
  }

  // The seed of the dice of the move at ply `ply` from the local seed.
  seedFor(ply) {
    const bytes = new Uint8Array(36);
    bytes.set(this.localSeed);
    new DataView(bytes.buffer).setUint32(32, ply);
    return this.core.sha256(bytes);
  }

  // The game's view sends an action: played for the seat to act, with the dice asked for when it is a roll.
  act(action) {
    const seat = this.actor();
    if (seat === null || !this.m) return;
    const before = this.state;
    const throws = this.throwsOf(seat, action, PROBE_SEEDS).length > 1 ? this.throwsOf(seat, action) : null;
    this.m.restore(this.nodes[this.at].snap);
    let dice = null;
    let seedHex = null;
    // The throw chosen in the list (drawn for the seat's first roll), found among this action's own throws by
    // its outcome; an action that cannot give it takes the local seed's dice.
    const chosen = this.throwSel.selectedOptions[0]?.dataset.outcome;
    const pick = throws && this.chooseRadio.checked && !this.throwSel.hidden ? throws.find((x) => x.outcomeText === chosen) : null;
    if (pick) {
      this.m.reseed(pick.seed);
      dice = 'chosen';
      seedHex = bytesHex(pick.seed);
    } else if (throws) {
      const seed = this.seedFor(before.ply);
      this.m.reseed(seed);
      dice = 'seed';
      seedHex = bytesHex(seed);
    }
    const r = this.m.apply(seat, action);
    if (r.error) {
      this.said.textContent = t('analysis.refused', { error: r.error });
      this.show(this.at);
      return;
    }
    const last = { seat, action, outcome: r.outcome };
    const text = this.module.notation({ kind: 'action', seat, action, outcome: r.outcome, view: this.m.view(),
      prev: before.view, ply: before.ply + 1 });
    this.nodes.splice(this.at + 1, Infinity, { id: this.nextId++, snap: this.m.snapshot(), last, dice, seedHex, text, ply: before.ply + 1 });
    this.show(this.at + 1);
    const over = this.state.status === 'finished' ? ` ${this.module.describeResult(this.state).text}` : '';
    this.said.textContent = `${this.entryText(this.nodes[this.at])}.${over}`;
  }

  entryText(node) {
    const from = node.dice === 'chosen' ? t('analysis.byChoice') : node.dice === 'seed' ? t('analysis.bySeed') : '';
    return from ? `${node.text} · ${from}` : node.text;
  }

  renderMoves() {
    clear(this.moves);
    this.nodes.forEach((node, k) => {
      const label = k === 0 ? t('analysis.start', { ply: node.ply }) : this.entryText(node);
      const b = h('button.log-move', { type: 'button', 'data-node': String(k), onclick: () => {
        this.show(k);
        this.said.textContent = t('analysis.backTo', { what: label });
      } },
      k ? h('span.log-ply', String(node.ply)) : null, k ? ' ' : null, label);
      if (node.seedHex) b.title = t('analysis.seedOf', { seed: node.seedHex });
      if (k === this.at) b.setAttribute('aria-current', 'step');
      this.moves.append(h('li', { class: k ? `log-action seat-c${node.last.seat}` : 'log-event' }, b));
    });
  }

  // The game's keys ("r" rolls) click its parts here, as in the room.
  key(ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target?.tagName)) return;
    if (ev.key === 'Escape') { ev.preventDefault(); this.close(); return; }
    if (ev.target?.tagName === 'BUTTON') return;
    const sc = (this.module.shortcuts || []).find((s) => s.key === ev.key.toLowerCase());
    const el = sc && this.el.querySelector(`[data-click="${CSS.escape(sc.token)}"]`);
    if (el) { ev.preventDefault(); el.click(); }
  }

  close() {
    this.destroy();
    this.onClose();
  }

  destroy() {
    this.el.removeEventListener('keydown', this.onKey);
    if (this.view?.destroy) this.view.destroy();
  }
}
