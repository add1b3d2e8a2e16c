// lobby.js: the lobby (route #/): the live list of rooms, pushed by the server after one `rooms`
// request, and the "New room" form. Renders from the room summaries it is given; sends
// create/join/watch/add_bot through app.net and navigates to the room. It knows no game: the game
// list, each game's options form and its words come from the game modules (games/registry.js).
//
// Fewer clicks: "Create room" seats the creator at once (join right after create); "Play against
// the computer" also fills every other seat with a bot of the level chosen beside it (Easy, Medium,
// Strong: levels.js), so the match starts from one click. The form also chooses the stand-ins' level
// (the room option stand_in_level), or leaves it to the server.

import { h, clear } from './dom.js';
import { navigate, errorToast } from './core.js';
import { clientSeed, seedUsed, seedField } from './seed.js';
import { t } from './i18n.js';
import { GAMES, gameModule, gameLabel } from './games/registry.js';
import { capitalize, describeOptionsDefault } from './games/common.js';
import { gameOptions, clockTag, clockFields } from './clock.js';
import { levelSelect, botBadge, seatName } from './levels.js';

function roleLabel(game, role) {
  const m = gameModule(game);
  return m && m.roleLabel ? m.roleLabel(role) : capitalize(role);
}

function optionTags(game, options) {
  const m = gameModule(game);
  const own = gameOptions(options);
  const tags = m && m.describeOptions ? m.describeOptions(own) : describeOptionsDefault(own);
  const clock = clockTag(options);
  return clock ? [...tags, clock] : tags;
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.list = h('div#room-list.room-list');
    this.el = h('section.lobby',
      h('h1.page-title', t('lobby.title')),
      h('p.archive-link', h('a#archive-link', { href: '#/matches' }, t('archive.lobbyLink'))),
      h('div.lobby-grid',
        h('div.card.rooms-card',
          h('h2', t('lobby.rooms')),
          this.list),
        this.newRoomForm()));
  }

  // The "New room" form: a game, its rules link, and that game's own options inputs (swapped with the game).
  newRoomForm() {
    const select = h('select#new-game', { name: 'game' },
      GAMES.map((g) => h('option', { value: g.id }, g.t('label'))));
    const optionsSlot = h('div.options-slot');
    const rulesLink = h('a#rules-link.rules-link');
    let form = null;
    const showOptions = () => {
      const m = gameModule(select.value);
      if (!m) return; // the server hosts no game this client can show
      form = m.optionsForm();
      clear(optionsSlot).append(form.el);
      rulesLink.href = `#/rules/${encodeURIComponent(select.value)}`;
      rulesLink.textContent = t('lobby.rulesOf', { game: gameLabel(select.value) });
    };
    const botLevel = levelSelect('bot-level');
    const standInLevel = levelSelect('stand-in-level', { remember: false,
      extra: [{ value: '', label: t('level.serverDefault') }] });
    select.addEventListener('change', showOptions);
    select.addEventListener('change', () => { botLevel.refill(select.value); standInLevel.refill(select.value); });
    showOptions();
    botLevel.refill(select.value);
    standInLevel.refill(select.value);
    const clock = clockFields();
    const button = h('button#create-room.primary', { type: 'submit' }, t('lobby.create'));
    const vsBot = h('button#play-bot.primary', { type: 'button' }, t('lobby.vsBot'));
    const run = async (bots) => {
      button.disabled = vsBot.disabled = true;
      try {
        const c = clock.value();
        const own = { ...(form ? form.value() : {}) };
        if (c) own.clock = c;
        if (standInLevel.value) own.stand_in_level = standInLevel.value;
        await this.createAndSit(select.value, own, bots ? botLevel.value : null);
      } finally {
        button.disabled = vsBot.disabled = false;
      }
    };
    vsBot.addEventListener('click', () => run(true));
    const levels = h('div.level-fields',
      h('div.level-row', h('label', { for: 'bot-level' }, t('level.computer')), botLevel.el),
      h('div.level-row', h('label', { for: 'stand-in-level' }, t('level.standIn')), standInLevel.el));
    return h('form#new-room.card.new-room', {
      onsubmit: (ev) => { ev.preventDefault(); run(false); },
    },
    h('h2', t('lobby.new')),
    h('label', { for: 'new-game' }, t('lobby.game')), select,
    rulesLink,
    optionsSlot,
    clock.el,
    levels,
    seedField('new-room'),
    h('div.new-room-buttons', vsBot, button));
  }

  // create, then join the first seat (and add a bot of level `bots` in every other seat when it is given),
  // then open the room.
  async createAndSit(game, options, bots) {
    const net = this.app.net;
    try {
      const reply = await net.request({ type: 'create', game, options });
      const room = reply.room || {};
      if (!room.id) return;
      // The reply is the room's summary (r2): list it now, before the lobby's next push.
      if (!this.app.rooms.some((r) => r.id === room.id)) this.app.rooms = [room, ...this.app.rooms];
      const seats = (room.seats || []).map((s) => s.seat);
      await net.request({ type: 'join', room: room.id, seat: seats[0] ?? 0, client_seed: clientSeed() });
      seedUsed();
      navigate(`#/room/${encodeURIComponent(room.id)}`);
      if (bots) for (const seat of seats.slice(1)) await net.request({ type: 'add_bot', room: room.id, seat, level: bots });
    } catch (e) {
      if (e.code === 'timeout' || e.code === 'disconnected') errorToast(e.code);
    }
  }

  update(rooms) {
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
    const seated = this.app.seated.has(r.id);
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
    return h('article.room-row', { 'data-room': r.id, 'data-status': r.status },
      h('div.room-title',
        h('h3.room-game', label),
        h('span.room-id', `#${r.id}`), opts,
        h('span.pill', { class: `pill-${r.status}` }, t(`status.${r.status}`))),
      h('ul.room-seats', seats.map((s) => h('li', { class: [s.name == null ? 'free' : '', `seat-c${s.seat}`], 'data-seat': s.seat },
        h('span.role', roleLabel(r.game, s.role)), ' ',
        s.name == null ? h('em', t('seat.free')) : h('span.name', seatName(s)),
        s.bot ? botBadge(s.name) : null))),
      h('div.room-meta', t('lobby.watchers', { n: r.watchers || 0 }), r.ply ? ` · ${t('lobby.ply', { n: r.ply })}` : ''),
      h('div.room-buttons',
        h('button.join', { type: 'button', onclick: join, disabled: !free || seated || r.status !== 'waiting',
          title: t('lobby.joinRoom', { id: r.id }) }, t('lobby.join')),
        h('button.watch', { type: 'button', onclick: watch, title: t('lobby.watchRoom', { id: r.id }) }, t('lobby.watch')),
        h('button.open', { type: 'button', onclick: open, title: t('lobby.openRoom', { id: r.id }) }, t('lobby.open'))));
  }
}
