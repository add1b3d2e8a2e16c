// archive.js: the archive in the browser. #/matches lists finished matches (GET /api/matches: filters
// by game, player name and result, newest first, a page at a time); #/replay/<id>?ply=N replays one from
// its record alone (GET /api/matches/<id>, nothing else asked of the server): a Web Worker
// (replay-worker.js) re-derives the match with the rules module (rules-core.js, derive.js: the seeds, every
// roll, every action and event, the result) while a progress bar fills, and the page draws only the steps it
// derived, a page of them at a time, with the game's own board module (the one live play uses, fed states
// built from the steps, never clickable), a move list in the game's notation, step / scrub / autoplay /
// arrow keys, and a verdict: everything re-derived, or the first ply that disagrees with the record, named
// in words (the replay stops before it). It knows no game: everything game-specific comes from the
// game's module (games/registry.js).

import { h, clear } from './dom.js';
import { navigate, reducedMotion } from './core.js';
import { translator, fmtDate } from './i18n.js';
import strings from './i18n/replay.js';
import { GAMES, gameModule, gameLabel } from './games/registry.js';
import { capitalize } from './games/common.js';
import { loadRules } from './rules-core.js';
import { legendList } from './room.js';
import { AnalysisBoard } from './analysis.js';
import { EyePanel } from './eye-view.js';
import { seatName } from './levels.js';

// This view's words (i18n/replay.js, loaded with it), then the shell's.
const t = translator(strings);

async function getJson(url) {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw Object.assign(new Error(body?.message || r.statusText), { status: r.status, body });
  return body;
}

const roleOf = (module, role) => (module?.roleLabel ? module.roleLabel(role) : capitalize(role));

// The query of a #/matches or #/replay route ("#/matches?player=Ana" -> URLSearchParams).
export function hashParams() {
  const i = location.hash.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : location.hash.slice(i + 1));
}

// A seat for people: the module's seatLabel ("Red hunter", "Arranger") where it has one, else its role.
const seatOf = (module, seats, seat) =>
  (typeof module?.seatLabel === 'function' ? module.seatLabel(seat) : roleOf(module, seats[seat]?.role));

// A finished match's result naming the players (issue 23): "Ana (Red hunter) wins", then the game's own
// words for how ("Red wins the duel"); a draw in the game's words. m: {game, seats, result}.
export function resultNodes(m) {
  const module = gameModule(m.game);
  if (!m.result) return ['—'];
  if (!module) return [JSON.stringify(m.result)];
  const r = module.describeResult({ ...m, status: 'finished' });
  const seats = m.seats || [];
  const winners = (r.winners || []).filter((w) => seats[w]);
  if (!winners.length) return [r.text];
  return [h('strong.result-winner', winners.map((w) => t('archive.wins', { name: seatName(seats[w]), seat: seatOf(module, seats, w) })).join(', ')),
    ' ', h('span.result-why', r.text)];
}

// --- #/matches -----------------------------------------------------------------------------------

export class MatchesView {
  constructor(app) {
    this.app = app;
    const q = hashParams();
    this.filters = { game: q.get('game') || '', player: q.get('player') || '', result: q.get('result') || '' };
    this.pages = [];     // cursors of the pages shown so far (null = the newest)
    this.next = null;
    this.list = h('ol#match-list.match-list', { 'aria-live': 'polite' });
    this.more = h('button#more-matches', { type: 'button', hidden: true, onclick: () => this.load(this.next) },
      t('archive.more'));
    this.el = h('section.archive.card',
      h('header.room-head', h('a.back', { href: '#/' }, t('room.back')), h('h1', t('archive.title'))),
      this.form(), this.list, this.more);
    this.load(null);
  }

  form() {
    const game = h('select#filter-game', { name: 'game' },
      h('option', { value: '' }, t('archive.anyGame')),
      ...GAMES.map((g) => h('option', { value: g.id, selected: g.id === this.filters.game }, g.t('label'))));
    const player = h('input#filter-player', { name: 'player', maxLength: 24, value: this.filters.player,
      placeholder: t('archive.playerPlaceholder') });
    const result = h('select#filter-result', { name: 'result' },
      ...['', 'won', 'lost', 'draw', 'resign', 'forfeit'].map((r) =>
        h('option', { value: r, selected: r === this.filters.result }, t(`archive.result.${r || 'any'}`))));
    return h('form#match-filters.filters', {
      onsubmit: (ev) => {
        ev.preventDefault();
        const q = new URLSearchParams();
        if (game.value) q.set('game', game.value);
        if (player.value.trim()) q.set('player', player.value.trim());
        if (result.value) q.set('result', result.value);
        navigate(`#/matches${[...q].length ? `?${q}` : ''}`);
      },
    },
    h('label', { for: 'filter-game' }, t('lobby.game')), game,
    h('label', { for: 'filter-player' }, t('archive.player')), player,
    h('label', { for: 'filter-result' }, t('archive.resultLabel')), result,
    h('button.primary', { type: 'submit' }, t('archive.filter')));
  }

  async load(before) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(this.filters)) if (v) q.set(k, v);
    q.set('limit', '20');
    if (before) q.set('before', before);
    this.more.hidden = true;
    try {
      const page = await getJson(`/api/matches?${q}`);
      this.pages.push(before);
      this.next = page.next;
      if (!before) clear(this.list);
      for (const m of page.matches) this.list.append(this.row(m));
      if (!this.list.children.length) this.list.append(h('li.log-empty', t('archive.none')));
      this.more.hidden = !page.next;
      document.body.dataset.matches = String(this.list.querySelectorAll('[data-match]').length);
    } catch (e) {
      clear(this.list).append(h('li.notice', e.body?.error === 'bad_request' ? t('archive.badFilter') : e.message));
    }
  }

  row(m) {
    const module = gameModule(m.game);
    const players = m.seats.map((s, i) => [i ? ', ' : '',
      h('a.player-link', { href: `#/matches?player=${encodeURIComponent(s.name)}`,
        title: t('archive.matchesOf', { name: seatName(s) }) }, seatName(s)),
      h('span.role-note', ` (${seatOf(module, m.seats, s.seat ?? i)})`)]).flat();
    return h('li.match-row', { 'data-match': m.id },
      h('a.replay-link', { href: `#/replay/${encodeURIComponent(m.id)}` }, `${gameLabel(m.game)} #${m.id}`),
      h('span.match-players', ...players),
      h('span.match-result', resultNodes(m)),
      h('span.match-length', t('archive.plies', { n: m.plies })),
      h('time.match-date', { datetime: new Date(m.ended_at).toISOString() }, fmtDate(m.ended_at)));
  }

  destroy() {}
}

// --- #/replay/<id> -------------------------------------------------------------------------------

const SPEEDS = [0.5, 1, 2, 4, 8];
const PAGE = 200;      // steps asked of the worker at a time
const PAGES_KEPT = 12; // pages of a replay kept in memory
const WASM = '/wasm/rules.wasm';

// The page's marks of a replay (document.body.dataset: what tests and tools wait for), cleared when
// a replay starts loading or goes away, so a mark is never an earlier replay's. replayVerify is the
// root element's data-verify (pending, ok, mismatch:<ply>).
function clearMarks() {
  for (const k of ['replaySteps', 'replayStep', 'replayVerify', 'ply']) delete document.body.dataset[k];
}

// A value of the record or of the rules, as the verdict quotes it.
const quote = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

export class ReplayView {
  constructor(app, id) {
    this.app = app;
    this.id = id;
    this.i = 0;          // the step shown
    this.pages = new Map(); // page number -> its request (a promise; .steps once answered), oldest first
    this.timer = null;
    this.speed = 1;
    this.asked = new Map(); // worker request id -> {resolve, reject}
    this.nextAsk = 1;
    this.bar = h('div#replay-progress.replay-progress', { role: 'progressbar', 'aria-valuemin': '0',
      'aria-valuemax': '100', 'aria-valuenow': '0', 'aria-label': t('archive.deriving') },
    h('span.replay-progress-fill'));
    this.board = h('div.game-board', { tabindex: '-1' }, h('p.loading', t('room.loading')));
    this.panel = h('div.game-panel');
    this.side = h('div.game-side');
    this.title = h('h1.room-name', t('archive.replayOf', { id }));
    this.stepLabel = h('span#replay-step.replay-step', { 'aria-live': 'polite' });
    this.scrub = h('input#replay-scrub.replay-scrub', { type: 'range', min: '0', max: '0', value: '0',
      'aria-label': t('archive.scrub'), oninput: () => this.go(Number(this.scrub.value)) });
    const btn = (id2, text, fn) => h(`button#${id2}`, { type: 'button', onclick: fn }, text);
    this.play = btn('replay-play', t('archive.play'), () => this.toggle());
    this.speedSel = h('select#replay-speed', { 'aria-label': t('archive.speed'),
      onchange: () => { this.speed = Number(this.speedSel.value); if (this.timer) this.start(); } },
    ...SPEEDS.map((s) => h('option', { value: String(s), selected: s === 1 }, `${s}×`)));
    this.controls = h('div#replay-controls.replay-controls',
      btn('replay-first', '«', () => this.go(0)), btn('replay-prev', '◀', () => this.go(this.i - 1)),
      this.play, btn('replay-next', '▶', () => this.go(this.i + 1)),
      btn('replay-last', '»', () => this.go(this.total - 1)), this.speedSel, this.scrub, this.stepLabel,
      btn('replay-analyse', t('archive.analyse'), () => this.analyse()));
    for (const [b, k] of [['replay-first', 'first'], ['replay-prev', 'prev'], ['replay-next', 'next'], ['replay-last', 'last']])
      this.controls.querySelector(`#${b}`).setAttribute('aria-label', t(`archive.${k}`));
    this.moves = h('ol#replay-moves.log-list');
    this.seatList = h('ol.seats');
    this.legend = h('div.legend-body');
    this.verdict = h('div#dice-verdict.dice-verdict', { 'data-verified': 'pending' }, t('archive.deriving'));
    this.resultSlot = h('div.result-slot');
    this.el = h('section.room.replay', { 'data-match': id, 'data-verify': 'pending' },
      h('header.room-head', h('a.back', { href: '#/matches' }, t('archive.back')), this.title),
      this.resultSlot,
      h('div.room-main',
        h('div.game-column', this.bar, this.board, this.panel, this.controls),
        h('aside.room-side', this.side,
          h('section.card.players', h('h2', t('room.players')), this.seatList),
          h('section.card.log', h('h2', t('archive.moves')), this.moves),
          h('section.card.fair', h('h2', t('fair.title')), this.verdict),
          h('details.card.legend', h('summary', t('room.legend')), this.legend))));
    this.onKey = (ev) => this.key(ev);
    document.addEventListener('keydown', this.onKey);
    clearMarks();
    document.body.dataset.replayVerify = 'pending';
    this.load();
  }

  // A request to the worker (replay-worker.js lists them); resolves with its answer, rejects with its error.
  ask(msg) {
    return new Promise((resolve, reject) => {
      const id = this.nextAsk++;
      this.asked.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  onWorker(ev) {
    const msg = ev.data;
    if (msg.type === 'progress') { this.progress(msg.done, msg.total); return; }
    if (msg.type === 'record') { this.onRecord?.(msg.record); return; }
    if (msg.type === 'eyePoints') { this.eyePoints(msg); return; }
    const q = this.asked.get(msg.id);
    if (!q) return;
    this.asked.delete(msg.id);
    if (msg.error) q.reject(Object.assign(new Error(msg.error), { status: msg.status })); else q.resolve(msg);
  }

  progress(done, total) {
    const pct = total ? Math.floor((100 * done) / total) : 100;
    this.bar.setAttribute('aria-valuenow', String(pct));
    this.bar.setAttribute('aria-valuetext', t('archive.derivingOf', { done, total }));
    this.bar.firstChild.style.width = `${pct}%`;
  }

  // A page of derived steps (the worker answers at most PAGE steps at a time), asked once and kept among the
  // last PAGES_KEPT asked for; resolves with { steps }.
  page(p) {
    let got = this.pages.get(p);
    if (!got) {
      got = this.ask({ type: 'steps', from: p * PAGE, limit: PAGE }).then((rep) => { got.steps = rep.steps; return rep; });
      got.catch(() => this.pages.delete(p));
      this.pages.set(p, got);
    }
    this.pages.delete(p);
    this.pages.set(p, got); // the newest last
    for (const k of this.pages.keys()) {
      if (this.pages.size <= PAGES_KEPT) break;
      if (k !== p) this.pages.delete(k);
    }
    return got;
  }

  // Step i if its page is here, else undefined.
  stepAt(i) { return this.pages.get(Math.floor(i / PAGE))?.steps?.[i % PAGE]; }

  // The record (GET /api/matches/{id}: nothing else is asked of the server), fetched and derived by the worker;
  // the page gets the record's summary first (seats, seeds, result: the header and the players), then the
  // derivation's verdict. The steps the rules derived without disagreeing with the record are all it shows.
  async load() {
    this.worker = new Worker(new URL('./replay-worker.js', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev) => this.onWorker(ev);
    this.worker.onerror = (ev) => this.failed(ev.message || t('archive.workerFailed'));
    const t0 = performance.now();
    const derived = this.ask({ type: 'derive', url: new URL(`/api/matches/${encodeURIComponent(this.id)}`, location.href).href,
      wasm: new URL(WASM, location.href).href });
    derived.catch(() => {}); // answered below
    const record = new Promise((resolve) => { this.onRecord = resolve; });
    try {
      this.arch = await Promise.race([record, derived.then(() => record)]);
    } catch (e) {
      this.bar.remove();
      clear(this.board).append(h('div.card#replay-missing', h('p', e.status === 404 ? t('archive.unknown', { id: this.id }) : e.message),
        h('a', { href: '#/matches' }, t('archive.back'))));
      return;
    }
    if (this.destroyed) return;
    const arch = this.arch;
    this.standIn = new Set(arch.standIn || []);
    this.rep = { game: arch.game, seats: arch.seats || [], options: arch.options || {}, result: arch.result ?? null,
      plies: arch.plies };
    this.module = gameModule(arch.game);
    // The game's own colours (its seat colours, for the seat tokens and the log) as in the live room.
    if (this.module) this.el.classList.add(`game-${this.module.id}`);
    this.title.textContent = `${gameLabel(arch.game)} · #${this.id}`;
    this.renderSeats();
    clear(this.board).append(h('p.loading', t('archive.deriving')));
    let r;
    try {
      r = await derived;
      this.deriveMs = performance.now() - t0; // the record fetched, the module loaded, every step derived (the benchmark's figure)
    } catch (e) {
      this.failed(e.message);
      return;
    }
    if (this.destroyed) return;
    this.derived = r;
    this.total = r.total;
    this.progress(1, 1);
    this.bar.hidden = true;
    this.renderVerdict();
    this.renderResult();
    clear(this.board);
    if (!this.total) { // not even the start: the seeds or the game do not hold
      this.board.append(h('p.notice#replay-nothing', t('archive.nothingDerived')));
      this.controls.hidden = true;
      return;
    }
    this.scrub.max = String(this.total - 1);
    if (this.module) {
      this.gameView = this.module.createView({ board: this.board, side: this.side, panel: this.panel,
        mySeat: () => null, act: () => {}, reducedMotion });
      clear(this.legend).append(legendList(this.module));
    } else this.board.append(h('p', t('room.noModule', { game: gameLabel(arch.game) })));
    const ply = Number(hashParams().get('ply'));
    const at = Number.isInteger(ply) && hashParams().has('ply') ? await this.stepOfPly(ply).catch(() => 0) : 0;
    await this.page(this.lastPage()).catch(() => {}); // End and » answer at once
    this.startEye();
    await this.go(at, { keepUrl: true });
    document.body.dataset.replaySteps = String(this.total);
  }

  // The bot's eye (eye-view.js) under the board, weighed by the worker once the match is derived.
  startEye() {
    if (!this.module) return;
    this.eye = new EyePanel({ seats: this.rep.seats.length, role: (s) => this.role(s), go: (k) => this.go(k),
      total: this.total });
    this.controls.after(this.eye.el);
    this.ask({ type: 'eye' }).then((rep) => this.eye?.started(rep), (e) => this.eye?.failed(e.message));
  }

  eyePoints(msg) {
    if (!this.eye) return;
    this.eye.add(msg);
    this.markCostly();
  }

  // The costly moves of the move list shown, marked (once each).
  markCostly() {
    for (const b of this.moves.querySelectorAll('button.log-move[data-step]')) {
      const loss = this.eye?.costAt(Number(b.dataset.step));
      if (loss === undefined || b.querySelector('.costly')) continue;
      const e = this.entry(Number(b.dataset.step));
      b.append(' ', h('span.badge.costly', { title: t('eye.costly', { role: this.role(e.seat), n: Math.round(loss * 100) }) },
        t('eye.costlyBadge', { pts: Math.round(loss * 100) })));
    }
  }

  // The worker could not run (no module, no WebAssembly, or a module without this game's JSON: 'no_rules'):
  // said where the verdict goes, data-verify="error"; nothing is drawn.
  failed(message) {
    if (this.destroyed || this.derived) return;
    this.derived = { ok: false, total: 0, mismatch: null, error: message };
    this.bar.hidden = true;
    const text = message === 'no_rules' ? t('archive.noRules', { game: gameLabel(this.arch.game) }) : t('archive.workerFailed');
    clear(this.board).append(h('p.notice#replay-nothing', text));
    this.controls.hidden = true;
    this.verdict.textContent = message === 'no_rules' ? text : `${text} (${message})`;
    this.verdict.dataset.verified = 'bad';
    this.el.dataset.verify = 'error';
    document.body.dataset.replayVerify = 'error';
  }

  lastPage() { return Math.floor((this.total - 1) / PAGE); }

  // The last step at ply N (events recorded at N included); the last derived step for a ply past it. A
  // step's index is its ply plus the events before it, so it is on the page of step N or a later one.
  async stepOfPly(ply) {
    for (let p = Math.floor(Math.min(Math.max(ply, 0), this.total - 1) / PAGE); ; p++) {
      const { steps } = await this.page(p);
      const k = steps.findLastIndex((s) => s.ply <= ply);
      if (k < steps.length - 1 || p === this.lastPage()) return p * PAGE + Math.max(k, 0);
      const next = await this.page(p + 1);
      if (next.steps[0].ply > ply) return p * PAGE + k;
    }
  }

  // The step as a `state` of the room, for the board module (nobody to act for: no legal actions). Only the
  // end of a record that derived whole is the finished match with its result.
  stateAt(i) {
    const s = this.stepAt(i);
    const end = i === this.total - 1 && this.derived.ok;
    return { type: 'state', room: this.id, game: this.rep.game, status: end ? 'finished' : 'playing', ply: s.ply,
      seats: this.rep.seats.map((x) => ({ ...x, connected: true })), to_act: s.to_act, view: s.view, legal: [],
      last: s.last, result: end ? this.rep.result : null, commit: this.arch.commit, options: this.rep.options };
  }

  // Shows step i: at once when its page is here, else once it came (unless another step was asked for
  // meanwhile). The neighbouring pages are asked ahead, so stepping and autoplay never wait.
  async go(i, { keepUrl = false } = {}) {
    if (!this.total) return;
    const want = Math.max(0, Math.min(this.total - 1, i));
    const p = Math.floor(want / PAGE);
    this.wanted = want;
    if (!this.stepAt(want)) {
      try { await this.page(p); } catch (e) { this.stepLabel.textContent = e.message; return; }
      if (this.wanted !== want || this.destroyed) return;
    }
    this.show(want, keepUrl);
    if (p > 0) this.page(p - 1).catch(() => {});
    if (p < this.lastPage()) this.page(p + 1).catch(() => {});
  }

  show(i, keepUrl) {
    this.i = i;
    const st = this.stateAt(this.i);
    if (this.gameView) this.gameView.update(st);
    this.eye?.show(this.i, st, this.module);
    this.scrub.value = String(this.i);
    this.stepLabel.textContent = t('archive.stepOf', { ply: st.ply, n: this.rep.plies });
    if (this.movesPage !== Math.floor(i / PAGE)) this.renderMoves(Math.floor(i / PAGE));
    for (const b of this.moves.querySelectorAll('[aria-current]')) b.removeAttribute('aria-current');
    const cur = this.moves.querySelector(`[data-step="${this.i}"]`);
    if (cur) { cur.setAttribute('aria-current', 'step'); cur.scrollIntoView({ block: 'nearest' }); }
    const b = document.body.dataset;
    b.ply = String(st.ply);
    b.replayStep = String(this.i);
    this.el.dataset.ply = String(st.ply);
    if (!keepUrl) history.replaceState(null, '', `#/replay/${encodeURIComponent(this.id)}?ply=${st.ply}`);
    if (this.i === this.total - 1 && this.timer) this.stop();
  }

  entry(i) {
    const s = this.stepAt(i);
    if (s.event) return { kind: 'event', seat: s.event.seat, what: s.event.kind };
    return { kind: 'action', ply: s.ply, seat: s.last.seat, action: s.last.action, outcome: s.last.outcome,
      view: s.view, prev: i > 0 ? this.stepAt(i - 1)?.view ?? null : null };
  }

  role(seat) { return seatOf(this.module, this.rep.seats, seat); }

  entryText(e) {
    if (e.kind === 'event') return t(`archive.event.${e.what}`, { role: this.role(e.seat), name: seatName(this.rep.seats[e.seat]) || '' });
    return this.module ? this.module.notation(e) : JSON.stringify(e.action);
  }

  // The moves of page p (the list shows one page of the match at a time: a long match has tens of
  // thousands); its steps are here when a step of it is shown.
  renderMoves(p) {
    this.movesPage = p;
    clear(this.moves);
    if (p === 0) {
      this.moves.append(h('li.log-event', h('button.log-move', { type: 'button', 'data-step': '0', onclick: () => this.go(0) },
        t('log.started'))));
    }
    const end = Math.min(this.total, (p + 1) * PAGE);
    for (let i = Math.max(1, p * PAGE); i < end; i++) {
      const e = this.entry(i);
      // protocol.md: an action a stand-in made for an absent player is marked in the archive.
      const standIn = e.kind === 'action' && this.standIn.has(e.ply - 1);
      this.moves.append(h('li.log-action', { class: `seat-c${e.seat}` },
        h('button.log-move', { type: 'button', 'data-step': String(i), onclick: () => this.go(i) },
          e.kind === 'action' ? h('span.log-ply', String(e.ply)) : null, ' ', this.entryText(e),
          standIn ? h('span.badge.stand-in', { title: t('seat.standInLabel') }, t('badge.standIn')) : null)));
    }
    this.markCostly();
    if (!this.derived.ok && end === this.total && this.derived.mismatch?.what !== 'result') {
      this.moves.append(h('li.log-event.replay-stop', t('archive.stopped', { ply: this.derived.mismatch.ply })));
    }
  }

  renderSeats() {
    clear(this.seatList).append(...this.rep.seats.map((s) => h('li.seat', { class: `seat-c${s.seat}` },
      h('span.token', { 'aria-hidden': 'true' }), h('span.role', seatOf(this.module, this.rep.seats, s.seat)),
      h('a.name.player-link', { href: `#/matches?player=${encodeURIComponent(s.name)}` }, seatName(s)),
      s.bot ? h('span.badge.bot', t('badge.bot')) : null)));
  }

  // The recorded result once the rules gave the same; else what the derivation found instead.
  renderResult() {
    const text = this.derived.ok ? resultNodes(this.rep) : t('archive.resultUnverified');
    clear(this.resultSlot).append(h('div.result-banner', h('span#result', text),
      h('span.result-name', ` · ${fmtDate(this.arch.ended_at)}`)));
  }

  // The first disagreement in words: derive's mismatch (what, ply, seat, recorded, derived).
  mismatchText(m) {
    const v = { ply: m.ply, role: m.seat === null ? '' : this.role(m.seat), recorded: quote(m.recorded),
      derived: quote(m.derived), played: quote(m.played) };
    if (m.what === 'action' || m.what === 'event') v.why = t(`archive.why.${m.derived}`);
    if (m.what === 'event') v.event = t(`archive.event.${m.recorded}`, { role: v.role, name: seatName(this.rep.seats[m.seat]) || '' });
    return t(`archive.mismatch.${m.what}`, v);
  }

  renderVerdict() {
    const r = this.derived;
    const verify = r.ok ? 'ok' : `mismatch:${r.mismatch.ply}`;
    this.verdict.textContent = r.ok ? t('archive.derivedOk', { n: r.plies }) : this.mismatchText(r.mismatch);
    this.verdict.dataset.verified = r.ok ? 'ok' : 'bad';
    if (!r.ok) this.verdict.dataset.ply = String(r.mismatch.ply);
    this.verdict.append(h('dl',
      h('dt', t('fair.commit')), h('dd', h('code.hash', this.arch.commit)),
      h('dt', t('fair.serverSeed')), h('dd', h('code.hash', this.arch.server_seed)),
      h('dt', t('fair.clientSeeds')), h('dd', h('ul.seeds', ...(Array.isArray(this.arch.client_seeds) ? this.arch.client_seeds : []).map((cs, i) =>
        h('li', `${this.role(i)}: `, h('code', cs === '' ? t('fair.none') : cs)))))));
    this.el.dataset.verify = verify;
    document.body.dataset.replayVerify = verify;
  }

  // For the analysis board (analysis.js): the match as it is after step `step` (one the page shows), as a
  // Match of the page's own RulesCore (rulesCore(), loaded once), free to be played on: the worker derives
  // it from its nearest snapshot and sends its bytes; nothing is asked of the server.
  async matchAt(step) {
    if (!this.total) throw new RangeError('nothing of this replay was derived');
    const [core, { bytes }] = await Promise.all([this.rulesCore(), this.ask({ type: 'match', step })]);
    const m = core.newMatch(this.rep.game, new Uint8Array(32), { max_turns: this.rep.options.max_turns || 0 });
    m.restore(bytes);
    return m;
  }

  // The page's own rules module (rules-core.js), loaded on first use.
  rulesCore() {
    this.core = this.core || loadRules(WASM);
    return this.core;
  }

  // The analysis board (analysis.js) in the replay's place, from the step shown; back at that step when closed.
  analyse() {
    if (!this.arch || !this.module || this.analysis) return;
    this.stop();
    const step = this.i;
    this.analysis = new AnalysisBoard({ arch: this.arch, step, module: this.module, matchAt: this.matchAt?.bind(this),
      onClose: () => { this.analysis.el.replaceWith(this.el); this.analysis = null; this.go(step); this.controls.querySelector('#replay-analyse').focus(); } });
    this.el.replaceWith(this.analysis.el);
  }

  toggle() { if (this.timer) this.stop(); else this.start(); }

  start() {
    clearInterval(this.timer);
    if (this.i >= this.total - 1) this.go(0);
    this.timer = setInterval(() => this.go(this.i + 1), 700 / this.speed);
    this.play.textContent = t('archive.pause');
    this.play.setAttribute('aria-pressed', 'true');
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.play.textContent = t('archive.play');
    this.play.setAttribute('aria-pressed', 'false');
  }

  key(ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey || this.analysis) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target?.tagName) && ev.target !== this.scrub) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 1, ArrowUp: -1 };
    if (ev.target === this.scrub && ev.key in moves) return; // the range input moves by itself
    if (ev.key in moves) { ev.preventDefault(); this.go(this.i + moves[ev.key]); } else if (ev.key === 'Home') { ev.preventDefault(); this.go(0); } else if (ev.key === 'End') { ev.preventDefault(); this.go(this.total - 1); } else if (ev.key === ' ' && ev.target?.tagName !== 'BUTTON') { ev.preventDefault(); this.toggle(); }
  }

  destroy() {
    this.destroyed = true;
    this.stop();
    this.analysis?.destroy();
    clearMarks();
    if (this.worker) this.worker.terminate();
    for (const q of this.asked.values()) q.reject(new Error('replay closed'));
    this.asked.clear();
    document.removeEventListener('keydown', this.onKey);
    if (this.gameView?.destroy) this.gameView.destroy();
  }
}
