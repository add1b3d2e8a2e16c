// players.js: the player pages and the leaderboards (issue 26), read over HTTP like the archive (no connection
// needed). #/players/<handle> (GET /api/players/<handle>): for an account, its rating per game with the history
// drawn as a small SVG line graph (a title and a description, and the same numbers as a table for whoever
// does not see it), its results by game and its recent matches, each linking to its replay; for a name that is
// no account's handle, the name record as the archive has it (matches, results by game, a link to the list of
// its matches). #/leaderboard?game=G (GET /api/leaderboard): the accounts by rating in one game, with a switch
// between games (links: the current one marked aria-current). No chart library: the graph is a few SVG elements.

import { h, s, clear } from './dom.js';
import { translator, fmtDate, fmtNumber } from './i18n.js';
import strings from './i18n/accounts.js';
import { GAMES, gameLabel } from './games/registry.js';
import { ratingNodes } from './levels.js';
import { loadCss } from './games/common.js';

// This view's words (i18n/accounts.js, with the account page's), then the shell's; its stylesheet.
const t = translator(strings);
await loadCss(new URL('./account.css', import.meta.url)); // (the dialogs open once it applies)

// The route's query ("#/leaderboard?game=ur" -> URLSearchParams); archive.js has the same, but is not loaded here.
function hashParams() {
  const i = location.hash.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : location.hash.slice(i + 1));
}

async function getJson(url) {
  const r = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await r.json().catch(() => null);
  if (!r.ok) throw Object.assign(new Error(body?.message || r.statusText), { status: r.status, body });
  return body;
}

const GRAPH = { w: 320, h: 120, pad: 8 }; // the graph's viewBox (it scales with the page)

// The rating history of one game as a line graph: one point per rated match (data-match: its id), a faint
// line at 1500 (where every account starts). history: [{at, rating, rd, match}], oldest first.
export function ratingGraph(game, history, handle) {
  const id = `graph-${game}`;
  const pts = history.map((p) => p.rating);
  const lo = Math.min(...pts, 1500) - 20;
  const hi = Math.max(...pts, 1500) + 20;
  const n = history.length;
  const x = (i) => GRAPH.pad + (n === 1 ? (GRAPH.w - 2 * GRAPH.pad) / 2 : (i * (GRAPH.w - 2 * GRAPH.pad)) / (n - 1));
  const y = (r) => GRAPH.h - GRAPH.pad - ((r - lo) * (GRAPH.h - 2 * GRAPH.pad)) / (hi - lo);
  const first = history[0];
  const last = history[n - 1];
  const r = (x) => String(Math.round(x)); // a rating reads "1500", never "1,500"
  const desc = t('player.graphDesc', { n, first: r(first.rating), last: r(last.rating), low: r(Math.min(...pts)),
    high: r(Math.max(...pts)) });
  return s('svg', { class: 'rating-graph', id, viewBox: `0 0 ${GRAPH.w} ${GRAPH.h}`, role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`, 'data-points': String(n) },
  s('title', { id: `${id}-title` }, t('player.graphTitle', { handle, game: gameLabel(game) })),
  s('desc', { id: `${id}-desc` }, desc),
  s('line', { class: 'graph-base', x1: GRAPH.pad, x2: GRAPH.w - GRAPH.pad, y1: y(1500), y2: y(1500) }),
  n > 1 ? s('polyline', { class: 'graph-line', fill: 'none', points: history.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ') }) : null,
  history.map((p, i) => s('circle', { class: 'graph-point', cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3,
    'data-match': p.match, 'data-rating': String(Math.round(p.rating)) })));
}

// The same history as a table (in a <details>: the numbers behind the graph, for everyone).
function historyTable(game, history) {
  return h('details.rating-numbers', h('summary', t('player.numbers')),
    h('table.data-table', { 'data-game': game },
      h('caption.sr-only', t('player.historyOf', { game: gameLabel(game) })),
      h('thead', h('tr', h('th', { scope: 'col' }, t('player.date')), h('th', { scope: 'col' }, t('player.rating')),
        h('th', { scope: 'col' }, t('player.rd')), h('th', { scope: 'col' }, t('player.match')))),
      h('tbody', [...history].reverse().map((p) => h('tr',
        h('td', fmtDate(p.at)), h('td', String(Math.round(p.rating))), h('td', String(Math.round(p.rd))),
        h('td', h('a', { href: `#/replay/${encodeURIComponent(p.match)}` }, `#${p.match}`)))))));
}

function resultWord(result) {
  const key = `player.result.${result}`;
  return t(key) === key ? String(result ?? '') : t(key);
}

export class PlayerView {
  constructor(app, handle) {
    this.app = app;
    this.handle = handle;
    this.body = h('div.player-body', { 'aria-busy': 'true' }, h('p.loading', t('player.loading')));
    this.title = h('h1#player-title', { tabindex: '-1' }, handle);
    this.el = h('section.player-page.card', { 'data-handle': handle },
      h('header.room-head', h('a.back', { href: '#/' }, t('room.back')), this.title,
        h('a.head-link', { href: '#/leaderboard' }, t('board.title'))),
      this.body);
    this.load();
  }

  async load() {
    let p;
    try {
      p = await getJson(`/api/players/${encodeURIComponent(this.handle)}`);
    } catch (e) {
      if (this.gone) return;
      clear(this.body).append(h('p.notice#player-missing', e.status === 404 ? t('player.unknown', { name: this.handle })
        : e.status === 400 ? t('player.badName') : e.message));
      this.body.removeAttribute('aria-busy');
      return;
    }
    if (this.gone) return;
    clear(this.body);
    this.body.removeAttribute('aria-busy');
    if (p.account) this.renderAccount(p); else this.renderName(p);
    document.body.dataset.player = p.account ? p.handle : p.name;
  }

  renderAccount(p) {
    this.title.textContent = p.handle;
    const ratings = Object.entries(p.ratings || {});
    this.body.append(
      h('p.player-facts', t('player.accountSince', { date: fmtDate(p.created_at) }),
        p.name && p.name !== p.handle ? ` · ${t('player.playsAs', { name: p.name })}` : ''),
      h('h2', t('player.ratings')),
      ratings.length ? h('div.rating-games', ratings.map(([game, r]) => h('section.rating-game.card', { 'data-game': game },
        h('h3', gameLabel(game)),
        h('p.rating-now', ratingNodes(r), ' ',
          h('span.note', t('player.ratingDetail', { rd: Math.round(r.rd), n: r.matches }))),
        r.provisional ? h('p.note', t('rating.provisionalNote')) : null,
        (r.history || []).length ? [ratingGraph(game, r.history, p.handle), historyTable(game, r.history)] : null)))
        : h('p.note#player-unrated', t('player.noRatings')),
      this.results(p),
      this.recent(p));
  }

  renderName(p) {
    this.title.textContent = p.name;
    this.body.append(
      h('p.player-facts#player-name-record', t('player.nameRecord', { name: p.name })),
      h('p', t('player.firstLast', { first: fmtDate(p.first_at), last: fmtDate(p.last_at) })),
      this.results(p),
      h('p', h('a#player-matches', { href: `#/matches?player=${encodeURIComponent(p.name)}` }, t('archive.matchesOf', { name: p.name }))));
  }

  // The results by game (every match of the identity, rated or not).
  results(p) {
    const games = Object.entries(p.games || {});
    return h('section.player-results', h('h2', t('player.results')),
      h('p', t('player.totals', { n: p.matches ?? 0, abandoned: p.abandoned ?? 0 })),
      games.length ? h('div.table-scroll', { tabindex: '0', role: 'region', 'aria-label': t('player.results') }, h('table.data-table#player-results',
        h('thead', h('tr', ...['game', 'matches', 'won', 'lost', 'drawn', 'abandoned'].map((k) =>
          h('th', { scope: 'col' }, t(`player.col.${k}`))))),
        h('tbody', games.map(([game, g]) => h('tr', { 'data-game': game },
          h('th', { scope: 'row' }, gameLabel(game)),
          ...['matches', 'won', 'lost', 'drawn', 'abandoned'].map((k) => h('td', fmtNumber(g[k] ?? 0))))))))
        : null);
  }

  recent(p) {
    const list = p.recent || [];
    return h('section.player-recent', h('h2', t('player.recent')),
      list.length ? h('ul#player-recent.recent-list', list.map((m) => h('li', { 'data-match': m.id },
        h('a.replay-link', { href: `#/replay/${encodeURIComponent(m.id)}` }, `${gameLabel(m.game)} #${m.id}`), ' ',
        h('span.recent-result', resultWord(m.result)), ' ',
        m.rated ? [h('span.tag.rated-tag', t('lobby.ratedTag')), ' '] : null,
        h('time.match-date', { datetime: new Date(m.ended_at).toISOString() }, fmtDate(m.ended_at)))))
        : h('p.note', t('player.noRecent')));
  }

  pageTitle() { return t('player.pageTitle', { handle: this.handle }); }

  destroy() { this.gone = true; }
}

// --- #/leaderboard?game=G ------------------------------------------------------------------------

export class LeaderboardView {
  constructor(app) {
    this.app = app;
    const asked = hashParams().get('game');
    this.game = GAMES.some((g) => g.id === asked) ? asked : GAMES[0]?.id;
    this.table = h('div#leaderboard.leaderboard', { 'aria-live': 'polite', 'aria-busy': 'true' }, h('p.loading', t('board.loading')));
    const games = h('nav.game-switch', { 'aria-label': t('board.games') }, h('ul', GAMES.map((g) =>
      h('li', h('a', { href: `#/leaderboard?game=${encodeURIComponent(g.id)}`, 'data-game': g.id,
        'aria-current': g.id === this.game ? 'page' : null }, g.t('label'))))));
    this.el = h('section.leaderboard-page.card', { 'data-game': this.game || '' },
      h('header.room-head', h('a.back', { href: '#/' }, t('room.back')),
        h('h1#board-title', { tabindex: '-1' }, t('board.titleOf', { game: gameLabel(this.game) }))),
      games, this.table);
    if (this.game) this.load();
  }

  async load() {
    let b;
    try {
      b = await getJson(`/api/leaderboard?game=${encodeURIComponent(this.game)}&limit=50`);
    } catch (e) {
      if (this.gone) return;
      this.table.removeAttribute('aria-busy');
      clear(this.table).append(h('p.notice#board-failed', e.status === 400 ? t('board.badGame') : e.message));
      return;
    }
    if (this.gone) return;
    this.table.removeAttribute('aria-busy');
    clear(this.table);
    if (!b.players.length) { this.table.append(h('p.note#board-empty', t('board.empty'))); return; }
    this.table.append(h('table.data-table',
      h('caption.sr-only', t('board.titleOf', { game: gameLabel(this.game) })),
      h('thead', h('tr', ...['rank', 'player', 'rating', 'matches'].map((k) => h('th', { scope: 'col' }, t(`board.col.${k}`))))),
      h('tbody', b.players.map((p) => h('tr', { 'data-handle': p.handle },
        h('td', String(p.rank)),
        h('th', { scope: 'row' }, h('a.player-link', { href: `#/players/${encodeURIComponent(p.handle)}` }, p.handle),
          p.name && p.name !== p.handle ? h('span.note', ` (${p.name})`) : null),
        h('td', ratingNodes(p)),
        h('td', fmtNumber(p.matches)))))));
  }

  pageTitle() { return t('board.titleOf', { game: gameLabel(this.game) }); }

  destroy() { this.gone = true; }
}
