// lobby.js: the lobby (route #/): the start panel first, then the live list of rooms, pushed by the
// server after one `rooms` request. Renders from the room summaries it is given; sends
// create/join/watch/add_bot through app.net and navigates to the room. It knows no game: the game
// list, each game's options form, its seats and its words come from the game modules (games/registry.js).
//
// Starting comes first (issue 23): the start panel is the first thing under the header and the first in
// the page's order (Game, the computer's level, "Play against the computer": a few Tabs, the top of a
// phone's screen), then "Learn to play <game>" for every game whose module has a `tutorial`, then the
// rest of the form: the seat you take (each seat by the module's seatLabel, "Arranger" for Quinteto's
// seat 5), each bot's level seat by seat (or all at the level chosen above: one choice), the game's own
// options, the clock, the stand-ins' level, the client seed (not for a game without dice) and
// "Create room" for a match with people. `#/?game=<id>` opens the lobby with that game chosen.
//
// Fewer clicks: "Create room" seats the creator at once (join right after create) in the seat chosen;
// "Play against the computer" also fills every other seat with a bot of its level (Easy, Medium, Strong:
// levels.js), so the match starts from one click.
// Issue 26: "Rated" at create, an account's only (bots play casual); ratings beside names; "Your rooms".

import { h, clear } from './dom.js';
import { navigate, errorToast } from './core.js';
import { clientSeed, seedUsed, seedField } from './seed.js';
import { t } from './i18n.js';
import { GAMES, gameModule, gameLabel } from './games/registry.js';
import { capitalize, describeOptionsDefault } from './games/common.js';
import { gameOptions, clockTag, clockFields } from './clock.js';
import { levelSelect, botBadge, gameLevels, levelLabel, seatPlayer } from './levels.js';

function roleLabel(game, role) {
  const m = gameModule(game);
  return m && m.roleLabel ? m.roleLabel(role) : capitalize(role);
}

// A seat for people: the module's seatLabel ("Red hunter", "Arranger"); else its role, numbered where
// the role repeats (a module without seatLabel).
export function seatLabel(game, seat, role) {
  const m = gameModule(game);
  if (m && typeof m.seatLabel === 'function') return m.seatLabel(seat);
  const roles = (m && m.roles) || [];
  const r = role ?? roles[seat];
  const label = roleLabel(game, r);
  return roles.filter((x) => x === r).length > 1 ? `${label} ${seat + 1}` : label;
}

// Whether game `id` throws dice (the module's `dice`, true unless it says false): the client seed is asked only then.
function hasDice(id) {
  return gameModule(id)?.dice !== false;
}

function optionTags(game, options) {
  const m = gameModule(game);
  const own = gameOptions(options);
  const tags = m && m.describeOptions ? m.describeOptions(own) : describeOptionsDefault(own);
  const clock = clockTag(options);
  return clock ? [...tags, clock] : tags;
}

// The game `#/?game=<id>` asks for, when this client shows it; else null.
export function wantedGame(hash = location.hash) {
  const i = hash.indexOf('?');
  const id = i < 0 ? null : new URLSearchParams(hash.slice(i + 1)).get('game');
  return id && gameModule(id) ? id : null;
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.list = h('div#room-list.room-list');
    this.mine = h('div#my-rooms.card.my-rooms', { hidden: true });
    this.el = h('section.lobby',
      h('h1.page-title', t('lobby.title')),
      h('div.lobby-grid',
        this.newRoomForm(wantedGame()),
        h('div.rooms-column',
          this.mine,
          h('p.archive-link', h('a#archive-link', { href: '#/matches' }, t('archive.lobbyLink'))),
          h('p.archive-link', h('a#leaderboard-link', { href: '#/leaderboard' }, t('board.lobbyLink'))),
          h('div.card.rooms-card',
            h('h2', t('lobby.rooms')),
            this.list))));
  }

  // The start panel and the "New room" form: a game, the computer's level and "Play against the computer"
  // first; the learn links; the seat, each bot's level, the game's own options (swapped with the game),
  // the clock, the stand-ins' level, the seed and "Create room".
  newRoomForm(wanted) {
    const select = h('select#new-game', { name: 'game' },
      GAMES.map((g) => h('option', { value: g.id, selected: g.id === wanted }, g.t('label'))));
    if (wanted) select.value = wanted;
    const optionsSlot = h('div.options-slot');
    const rulesLink = h('a#rules-link.rules-link');
    const seatSelect = h('select#new-seat', { name: 'seat' });
    const seatLevels = h('ul#seat-levels.seat-levels');
    const seatLevelsBox = h('details#seat-levels-box.seat-levels-box',
      h('summary', t('lobby.seatLevels')), h('p.note', t('lobby.seatLevelsNote')), seatLevels);
    const seedSlot = h('div.seed-slot', seedField('new-room'));
    const learn = GAMES.filter((g) => typeof g.tutorial === 'function');
    const learnLinks = learn.length ? h('ul.learn-links', learn.map((g) =>
      h('li', h('a.learn-link', { href: `#/learn/${encodeURIComponent(g.id)}`, 'data-game': g.id },
        t('lobby.learn', { game: g.t('label') }))))) : null;
    let form = null;
    const botLevel = levelSelect('bot-level');
    const standInLevel = levelSelect('stand-in-level', { remember: false,
      extra: [{ value: '', label: t('level.serverDefault') }] });
    // The per-seat levels: '' follows the level chosen above ("everyone at level X" stays one choice).
    let perSeat = [];
    const fillSeatLevels = () => {
      const game = select.value;
      const mine = Number(seatSelect.value);
      const levels = gameLevels(game);
      const sameAs = t('lobby.seatLevelSame', { level: levelLabel(botLevel.value) });
      clear(seatLevels);
      const n = (gameModule(game)?.roles || []).length;
      seatLevelsBox.hidden = n <= 2; // one bot: its level is the one above
      for (let seat = 0; seat < n; seat++) {
        const id = `seat-level-${seat}`;
        const label = seatLabel(game, seat);
        if (seat === mine) {
          seatLevels.append(h('li.seat-level.mine', { 'data-seat': seat }, h('span.seat-name', label),
            h('span.seat-you', t('lobby.seatYou'))));
          continue;
        }
        const sel = h(`select#${id}.level-select`, { name: id, 'data-seat': seat },
          h('option', { value: '' }, sameAs),
          levels.map((l) => h('option', { value: l, 'data-level': l }, levelLabel(l))));
        sel.value = levels.includes(perSeat[seat]) ? perSeat[seat] : '';
        sel.addEventListener('change', () => { perSeat[seat] = sel.value; });
        seatLevels.append(h('li.seat-level', { 'data-seat': seat }, h('label', { for: id }, label), sel));
      }
    };
    const fillSeats = () => {
      const game = select.value;
      const n = (gameModule(game)?.roles || []).length;
      clear(seatSelect).append(...Array.from({ length: n }, (_, seat) =>
        h('option', { value: String(seat) }, seatLabel(game, seat))));
      seatSelect.value = '0';
      perSeat = [];
    };
    const showOptions = () => {
      const m = gameModule(select.value);
      if (!m) return; // the server hosts no game this client can show
      form = m.optionsForm();
      clear(optionsSlot).append(form.el);
      rulesLink.href = `#/rules/${encodeURIComponent(select.value)}`;
      rulesLink.textContent = t('lobby.rulesOf', { game: gameLabel(select.value) });
      seedSlot.hidden = !hasDice(select.value);
    };
    select.addEventListener('change', showOptions);
    select.addEventListener('change', () => {
      botLevel.refill(select.value);
      standInLevel.refill(select.value);
      fillSeats();
      fillSeatLevels();
    });
    seatSelect.addEventListener('change', fillSeatLevels);
    botLevel.el.addEventListener('change', fillSeatLevels);
    showOptions();
    botLevel.refill(select.value);
    standInLevel.refill(select.value);
    fillSeats();
    fillSeatLevels();
    const clock = clockFields();
    const rated = h('input#new-rated', { type: 'checkbox', name: 'rated', 'aria-describedby': 'new-rated-note' });
    const ratedNote = h('p#new-rated-note.note');
    this.ratedBox = { rated, ratedNote };
    this.accountChanged();
    const button = h('button#create-room.primary', { type: 'submit' }, t('lobby.create'));
    const vsBot = h('button#play-bot.primary.play-bot', { type: 'button' }, t('lobby.vsBot'));
    const run = async (bots) => {
      button.disabled = vsBot.disabled = true;
      try {
        const c = clock.value();
        const own = { ...(form ? form.value() : {}) };
        if (c) own.clock = c;
        if (standInLevel.value) own.stand_in_level = standInLevel.value;
        const n = (gameModule(select.value)?.roles || []).length;
        const levels = bots ? Array.from({ length: n }, (_, s) => perSeat[s] || botLevel.value) : null;
        await this.createAndSit(select.value, own, { seat: Number(seatSelect.value) || 0, bots: levels,
          rated: !bots && rated.checked && !rated.disabled });
      } finally {
        button.disabled = vsBot.disabled = false;
      }
    };
    vsBot.addEventListener('click', () => run(true));
    return h('form#new-room.card.new-room', {
      onsubmit: (ev) => { ev.preventDefault(); run(false); },
    },
    h('h2', t('lobby.start')),
    h('div.start-row',
      h('div.field', h('label', { for: 'new-game' }, t('lobby.game')), select),
      h('div.field', h('label', { for: 'bot-level' }, t('level.computer')), botLevel.el),
      vsBot),
    learnLinks,
    rulesLink,
    h('div.field.seat-field', h('label', { for: 'new-seat' }, t('lobby.seat')), seatSelect),
    seatLevelsBox,
    h('h3.new-room-more', t('lobby.options')),
    optionsSlot,
    clock.el,
    h('div.level-fields',
      h('div.level-row', h('label', { for: 'stand-in-level' }, t('level.standIn')), standInLevel.el)),
    seedSlot,
    h('div.rated-field', h('label.check', { for: 'new-rated' }, rated, ' ', t('lobby.rated')), ratedNote),
    h('div.new-room-buttons', button));
  }

  // create, then join `seat` (the first seat when the game has no such seat), add a bot in every other
  // seat at its level when `bots` (a level per seat) is given, and open the room.
  async createAndSit(game, options, { seat = 0, bots = null, rated = false } = {}) {
    const net = this.app.net;
    try {
      const create = { type: 'create', game, options };
      if (rated) create.rated = true;
      const reply = await net.request(create);
      const room = reply.room || {};
      if (!room.id) return;
      // The reply is the room's summary (r2): list it now, before the lobby's next push.
      if (!this.app.rooms.some((r) => r.id === room.id)) this.app.rooms = [room, ...this.app.rooms];
      const seats = (room.seats || []).map((s) => s.seat);
      const mine = seats.includes(seat) ? seat : (seats[0] ?? 0);
      const join = { type: 'join', room: room.id, seat: mine };
      if (hasDice(game)) join.client_seed = clientSeed();
      await net.request(join);
      if (join.client_seed) seedUsed();
      navigate(`#/room/${encodeURIComponent(room.id)}`);
      if (bots) {
        for (const s of seats) {
          if (s !== mine) await net.request({ type: 'add_bot', room: room.id, seat: s, level: bots[s] });
        }
      }
    } catch (e) {
      if (e.code === 'timeout' || e.code === 'disconnected') errorToast(e.code);
    }
  }

  // (account.js calls this when the account changes)
  accountChanged() {
    const { rated, ratedNote } = this.ratedBox;
    const signedIn = !!this.app.account;
    rated.disabled = !signedIn;
    if (!signedIn) rated.checked = false;
    ratedNote.textContent = t(signedIn ? 'lobby.ratedNote' : 'lobby.ratedGuest');
    if (this.app.rooms) this.renderMine(this.app.rooms);
  }

  // The rooms this player holds a seat in (after a sign-in, the account's), on this node and (a cluster's
  // welcome.elsewhere) on the others: a link to one of those names its node.
  renderMine(rooms) {
    const ids = [...this.app.seated, ...[...this.app.elsewhere.keys()].filter((id) => !this.app.seated.has(id))];
    clear(this.mine).hidden = !ids.length;
    if (!ids.length) return;
    const byId = new Map(rooms.map((r) => [r.id, r]));
    this.mine.append(h('h2', t('lobby.myRooms')), h('ul.my-room-list', ids.map((id) => {
      const r = byId.get(id);
      const node = this.app.seated.has(id) ? null : this.app.elsewhere.get(id).node;
      const href = `#/room/${encodeURIComponent(id)}${node ? `?node=${encodeURIComponent(node)}` : ''}`;
      return h('li', { 'data-room': id, 'data-node': node }, h('a.my-room', { href },
        r ? `${gameLabel(r.game)} #${id}` : `#${id}`), r ? [' ', h('span.pill', { class: `pill-${r.status}` }, t(`status.${r.status}`))] : null);
    })));
  }

  update(rooms) {
    this.renderMine(rooms);
    const list = clear(this.list);
    const sorted = [...rooms].sort((a, b) => (b.created_at || 0) - (a.created_at || 0));
    if (!sorted.length) {
      list.append(h('p.empty', t('lobby.empty')));
      return;
    }
    for (const r of sorted) list.append(this.row(r));
  }

  row(r) {
    const seats = r.seats || [];
    const seated = this.app.seated.has(r.id) || this.app.elsewhere.has(r.id);
    const free = seats.some((s) => s.name === null || s.name === undefined);
    const open = () => navigate(`#/room/${encodeURIComponent(r.id)}`);
    const join = async () => {
      try {
        await this.app.net.request({ type: 'join', room: r.id, client_seed: clientSeed() });
        seedUsed();
        open();
      } catch { /* the error toast is shown by app.js */ }
    };
    const watch = async () => {
      try {
        await this.app.net.request({ type: 'watch', room: r.id });
        this.app.watching.add(r.id);
      } catch { return; }
      open();
    };
    const opts = optionTags(r.game, r.options).map((x) => h('span.tag', x));
    const label = gameLabel(r.game);
    return h('article.room-row', { 'data-room': r.id, 'data-status': r.status, 'data-rated': r.rated ? 'true' : null },
      h('div.room-title',
        h('h3.room-game', label),
        h('span.room-id', `#${r.id}`), opts,
        r.rated ? h('span.tag.rated-tag', { title: t('lobby.ratedTitle') }, t('lobby.ratedTag')) : null,
        h('span.pill', { class: `pill-${r.status}` }, t(`status.${r.status}`))),
      h('ul.room-seats', seats.map((s) => h('li', { class: [s.name == null ? 'free' : '', `seat-c${s.seat}`], 'data-seat': s.seat },
        h('span.role', seatLabel(r.game, s.seat, s.role)), ' ',
        s.name == null ? h('em', t('seat.free')) : seatPlayer(s),
        s.bot ? botBadge(s.name) : null))),
      h('div.room-meta', t('lobby.watchers', { n: r.watchers || 0 }), r.ply ? ` · ${t('lobby.ply', { n: r.ply })}` : ''),
      h('div.room-buttons',
        h('button.join', { type: 'button', onclick: join, disabled: !free || seated || r.status !== 'waiting',
          title: t('lobby.joinRoom', { id: r.id }) }, t('lobby.join')),
        h('button.watch', { type: 'button', onclick: watch, title: t('lobby.watchRoom', { id: r.id }) }, t('lobby.watch')),
        h('button.open', { type: 'button', onclick: open, title: t('lobby.openRoom', { id: r.id }) }, t('lobby.open'))));
  }
}
