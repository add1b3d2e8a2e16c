// lobby.js: the lobby (route #/): the live list of rooms, pushed by the server after one `rooms`
// request, and the "New room" form. Renders from the room summaries it is given; sends
// create/join/watch through app.net and navigates to the room. It knows no game: the game list,
// each game's options form and its words come from the game modules (games/registry.js).

import { h, clear } from './dom.js';
import { navigate, toast } from './app.js';
import { GAMES, gameModule, gameLabel } from './games/registry.js';
import { capitalize, describeOptionsDefault } from './games/common.js';

function roleLabel(game, role) {
  const m = gameModule(game);
  return m && m.roleLabel ? m.roleLabel(role) : capitalize(role);
}

function optionTags(game, options) {
  const m = gameModule(game);
  return m && m.describeOptions ? m.describeOptions(options || {}) : describeOptionsDefault(options);
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.list = h('div#room-list.room-list', { 'aria-live': 'polite' });
    this.el = h('section.lobby',
      h('div.lobby-grid',
        h('div.card.rooms-card',
          h('h2', 'Rooms'),
          this.list),
        this.newRoomForm()));
  }

  // The "New room" form: a game, and that game's own options inputs (swapped with the game).
  newRoomForm() {
    const select = h('select#new-game', { name: 'game', 'aria-label': 'Game' },
      GAMES.map((g) => h('option', { value: g.id }, g.label)));
    const optionsSlot = h('div.options-slot');
    let form = null;
    const showOptions = () => {
      form = gameModule(select.value).optionsForm();
      clear(optionsSlot).append(form.el);
    };
    select.addEventListener('change', showOptions);
    showOptions();
    const button = h('button#create-room.primary', { type: 'submit' }, 'Create room');
    return h('form#new-room.card.new-room', {
      onsubmit: async (ev) => {
        ev.preventDefault();
        button.disabled = true;
        try {
          const reply = await this.app.net.request({ type: 'create', game: select.value, options: form.value() });
          const room = reply.room || {};
          if (room.id) {
            // The reply is the room's summary (r2): list it now, before the lobby's next push.
            if (!this.app.rooms.some((r) => r.id === room.id)) this.app.rooms = [room, ...this.app.rooms];
            navigate(`#/room/${encodeURIComponent(room.id)}`);
          }
        } catch (e) {
          if (e.code === 'timeout' || e.code === 'disconnected') toast('the server did not answer', e.code);
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h2', 'New room'),
    h('label', { for: 'new-game' }, 'Game'), select,
    optionsSlot,
    button);
  }

  update(rooms) {
    const list = clear(this.list);
    const sorted = [...rooms].sort((a, b) => (b.created_at || 0) - (a.created_at || 0));
    if (!sorted.length) {
      list.append(h('p.empty', 'No rooms yet. Create one!'));
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
        await this.app.net.request({ type: 'join', room: r.id });
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
    const opts = optionTags(r.game, r.options).map((t) => h('span.tag', t));
    return h('article.room-row', { 'data-room': r.id, 'data-status': r.status },
      h('div.room-title',
        h('strong', gameLabel(r.game)),
        h('span.room-id', `#${r.id}`), opts,
        h('span.pill', { class: `pill-${r.status}` }, r.status)),
      h('ul.room-seats', seats.map((s) => h('li', { class: [s.name == null ? 'free' : '', `seat-c${s.seat}`], 'data-seat': s.seat },
        h('span.role', roleLabel(r.game, s.role)), ' ',
        s.name == null ? h('em', 'free') : h('span.name', s.name),
        s.bot ? h('span.badge.bot', 'bot') : null))),
      h('div.room-meta', `${r.watchers || 0} watching`, r.ply ? ` · ply ${r.ply}` : ''),
      h('div.room-buttons',
        h('button.join', { type: 'button', onclick: join, disabled: !free || seated || r.status !== 'waiting',
          'aria-label': `Join room ${r.id}` }, 'Join'),
        h('button.watch', { type: 'button', onclick: watch, 'aria-label': `Watch room ${r.id}` }, 'Watch'),
        h('button.open', { type: 'button', onclick: open, 'aria-label': `Open room ${r.id}` }, 'Open')));
  }
}
