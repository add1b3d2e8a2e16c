// room.js: the room view (route #/room/<id>): seats, the game, the result banner, chat and the
// "fair dice" details. It knows no game: the game module (games/registry.js) gets three elements
// of its own (board, side, panel) once, and update(state) with every state after that, so what a
// player has half-done in the game view survives states that do not change it. The skeleton is
// built once per room; the chat input keeps its text across updates.
//
// An action sent waits for its answer: the game area is marked `sending` (its clickable parts are
// inert) until the ply moves on, an error comes back, or the connection is made again.

import { h, clear } from './dom.js';
import { mySeat, navigate } from './app.js';
import { gameModule, gameLabel } from './games/registry.js';
import { capitalize, describeOptionsDefault } from './games/common.js';

function fmtTime(ms) {
  try { return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); } catch { return ''; }
}

export class RoomView {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.state = null;
    this.module = null;   // the game module, once the first state named the game
    this.gameView = null; // what module.createView() returned
    this.sentAt = null;   // ply of the action sent and not yet answered
    this.title = h('h2.room-name', `Room #${roomId}`);
    this.optionTags = h('span.room-options');
    this.statusPill = h('span.pill', '…');
    this.resultSlot = h('div.result-slot');
    this.board = h('div.game-board', h('p.loading', 'Loading the room…'));
    this.panel = h('div.game-panel');
    this.side = h('div.game-side');
    this.gameArea = h('div.game-column', this.board, this.panel);
    this.seats = h('ol.seats', { 'aria-label': 'Seats' });
    this.buttons = h('div.room-actions');
    this.fair = h('details.fair', h('summary', 'Fair dice'), h('div.fair-body'));
    this.chatList = h('ol.chat-list', { 'aria-live': 'polite', 'aria-label': 'Chat messages' });
    this.el = h('section.room', { 'data-room': roomId },
      h('header.room-head',
        h('a.back', { href: '#/', 'aria-label': 'Back to the lobby' }, '← Lobby'),
        this.title, this.optionTags, this.statusPill),
      this.resultSlot,
      h('div.room-main',
        this.gameArea,
        h('aside.room-side',
          this.side,
          h('div.card', h('h3', 'Players'), this.seats, this.buttons),
          h('div.card.chat', h('h3', 'Chat'), this.chatList, this.chatForm()),
          h('div.card', this.fair))));
    for (const m of app.chats.get(roomId) || []) this.addChat(m);
  }

  chatForm() {
    const input = h('input#chat-input', { maxLength: 500, placeholder: 'Say something…', 'aria-label': 'Chat message', autocomplete: 'off' });
    return h('form.chat-form', {
      onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        this.app.net.send({ type: 'chat', room: this.roomId, text: text.slice(0, 500) });
        input.value = '';
      },
    }, input, h('button', { type: 'submit', 'aria-label': 'Send chat message' }, 'Send'));
  }

  destroy() {
    if (this.gameView && this.gameView.destroy) this.gameView.destroy();
  }

  unknownRoom() {
    clear(this.board).append(h('div.card', h('p', `There is no room #${this.roomId}.`),
      h('a', { href: '#/' }, 'Back to the lobby')));
  }

  roleLabel(role) {
    return this.module && this.module.roleLabel ? this.module.roleLabel(role) : capitalize(role);
  }

  update(st) {
    this.state = st;
    if (this.sentAt !== null && st.ply !== this.sentAt) this.setSending(null);
    const seat = mySeat(this.roomId);
    this.title.textContent = `${gameLabel(st.game)} · #${this.roomId}`;
    this.statusPill.textContent = st.status;
    this.statusPill.className = `pill pill-${st.status}`;
    this.renderOptions(st);
    this.renderResult(st, seat);
    this.renderSeats(st, seat);
    this.renderButtons(st, seat);
    this.renderGame(st);
    this.renderFair(st);
  }

  // The room's options (`state.options`, defaults filled in) as short tags beside the title.
  renderOptions(st) {
    const tags = this.module && this.module.describeOptions
      ? this.module.describeOptions(st.options || {}) : describeOptionsDefault(st.options);
    clear(this.optionTags).append(...tags.map((t) => h('span.tag', t)));
    this.optionTags.dataset.options = JSON.stringify(st.options || {});
  }

  renderResult(st, seat) {
    clear(this.resultSlot);
    if (st.status !== 'finished' || !st.result) return;
    const r = this.module ? this.module.describeResult(st) : { text: JSON.stringify(st.result), winners: [] };
    const winners = r.winners || [];
    let extra = '';
    if (seat !== null && winners.length) extra = winners.includes(seat) ? 'You win!' : 'You lose.';
    const names = winners.map((w) => st.seats[w] && st.seats[w].name).filter(Boolean);
    this.resultSlot.append(h('div.result-banner', { role: 'status' },
      h('span#result', r.text),
      names.length ? h('span.result-name', ` (${names.join(', ')})`) : null,
      extra ? h('span.result-you', ` ${extra}`) : null,
      h('a.result-back', { href: '#/' }, 'Back to the lobby')));
  }

  seatItem(st, s, seat, toAct) {
    const free = s.name === null || s.name === undefined;
    const acting = toAct.has(s.seat) && st.status === 'playing';
    const on = s.connected || s.bot;
    const role = this.roleLabel(s.role);
    const li = h('li.seat', {
      'data-seat': s.seat,
      class: [free ? 'free' : '', acting ? 'to-act' : '', s.seat === seat ? 'mine' : '', `role-${s.role}`, `seat-c${s.seat}`],
    },
    h('span.dot', { class: free ? 'dot-free' : on ? 'dot-on' : 'dot-off',
      title: free ? 'free' : on ? 'connected' : 'disconnected', 'aria-label': free ? 'free' : on ? 'connected' : 'disconnected' }),
    h('span.token', { 'aria-hidden': 'true' }),
    h('span.role', role),
    h('span.name', free ? h('em', 'free') : s.name),
    s.bot ? h('span.badge.bot', 'bot') : null,
    s.seat === seat ? h('span.badge.you', 'you') : null,
    acting ? h('span.turn-mark', { title: 'to play' }, '◀ to play') : null);
    if (free && st.status === 'waiting') {
      const btns = h('span.seat-buttons');
      if (seat === null) {
        btns.append(h('button.take-seat', {
          type: 'button', 'data-seat': s.seat, 'aria-label': `Take the ${role} seat`,
          onclick: () => this.app.net.request({ type: 'join', room: this.roomId, seat: s.seat }).catch(() => {}),
        }, 'Take seat'));
      }
      btns.append(h('button.add-bot', {
        type: 'button', 'data-seat': s.seat, 'aria-label': `Add a bot in the ${role} seat`,
        onclick: () => this.app.net.request({ type: 'add_bot', room: this.roomId, seat: s.seat }).catch(() => {}),
      }, 'Add bot'));
      li.append(btns);
    }
    return li;
  }

  renderSeats(st, seat) {
    const ul = clear(this.seats);
    const toAct = new Set(st.to_act || []);
    for (const s of st.seats || []) ul.append(this.seatItem(st, s, seat, toAct));
  }

  renderButtons(st, seat) {
    const box = clear(this.buttons);
    if (seat !== null && st.status !== 'finished') {
      box.append(h('button.leave', {
        type: 'button', 'aria-label': 'Leave this room',
        onclick: async () => {
          try {
            await this.app.net.request({ type: 'leave', room: this.roomId });
            navigate('#/');
          } catch { /* toast shown */ }
        },
      }, 'Leave'));
    }
    if (seat !== null && st.status === 'playing') {
      box.append(h('button.resign.danger', {
        type: 'button', 'aria-label': 'Resign this match',
        onclick: () => {
          if (!window.confirm('Resign? You leave play for the rest of this match; this cannot be undone.')) return;
          this.app.net.request({ type: 'resign', room: this.roomId }).catch(() => {});
        },
      }, 'Resign'));
    }
    if (seat === null) box.append(h('p.watching-note', st.status === 'waiting' ? 'You are watching. Take a free seat to play.' : 'You are watching.'));
  }

  // Creates the game's view on the first state, then only updates it.
  renderGame(st) {
    if (!this.gameView) {
      this.module = gameModule(st.game);
      clear(this.board);
      if (!this.module) {
        this.board.append(h('div.card', h('p', `${gameLabel(st.game)}: this client cannot show this game yet.`)));
        return;
      }
      this.el.classList.add(`game-${this.module.id}`);
      this.gameView = this.module.createView({
        board: this.board,
        side: this.side,
        panel: this.panel,
        mySeat: () => mySeat(this.roomId),
        act: (action) => this.act(action),
      });
      this.renderOptions(st); // now with the module's words
    }
    this.gameView.update(st);
  }

  setSending(ply) {
    this.sentAt = ply;
    this.gameArea.classList.toggle('sending', ply !== null);
  }

  // Sends `action` at the current ply; one action per ply until an answer comes.
  act(action) {
    const st = this.state;
    if (!st || this.sentAt !== null) return;
    this.setSending(st.ply);
    this.app.sent.push(action);
    this.app.net.send({ type: 'act', room: this.roomId, ply: st.ply, action });
  }

  // The action sent was refused (or the connection was made again): the game view takes clicks again.
  actionDone() {
    this.setSending(null);
    if (this.state && this.gameView) this.gameView.update(this.state);
  }

  renderFair(st) {
    const body = this.fair.querySelector('.fair-body');
    clear(body);
    body.append(h('p', 'Before anyone sat down the server committed to its secret seed:'),
      h('dl',
        h('dt', 'commit (SHA-256 of the server seed)'), h('dd', h('code.hash#commit', st.commit || '—'))));
    if (st.status === 'finished' && st.server_seed) {
      const seeds = (st.client_seeds || []).map((cs, i) => h('li', `${this.roleLabel(st.seats[i]?.role) || `seat ${i}`}: `,
        h('code', cs === '' ? '(none)' : cs)));
      body.append(h('dl',
        h('dt', 'server seed'), h('dd', h('code.hash#server-seed', st.server_seed)),
        h('dt', 'client seeds'), h('dd', h('ul.seeds', seeds))),
      h('p.note', 'Anyone can verify the dice: SHA-256(server seed) must equal the commit, and the match seed ' +
        '= SHA-256(server seed ‖ each client seed + 0x00) re-derives every throw of the match.'));
    } else {
      body.append(h('p.note', 'The seed is revealed when the match ends, so anyone can check every throw.'));
    }
  }

  addChat(m) {
    const who = m.seat === null || m.seat === undefined ? `${m.name} (watching)` : m.name;
    this.chatList.append(h('li', h('span.chat-time', fmtTime(m.at)), ' ', h('strong', who), ': ', h('span', m.text)));
    while (this.chatList.children.length > 200) this.chatList.firstChild.remove();
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }
}
