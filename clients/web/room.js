// room.js: the room view (route #/room/<id>): seats, the game board, the result banner, chat and the
// "fair dice" details. The skeleton is built once per room; update(state) refreshes the parts from
// the latest `state`, and the chat input keeps its text across updates. Game boards come from
// per-game renderers (ur.js); other games show a placeholder.

import { h, clear } from './dom.js';
import { mySeat, navigate } from './app.js';
import { renderUr, describeResult } from './ur.js';
import { GAME_LABEL } from './games.js';

function roleLabel(role) {
  return role ? role[0].toUpperCase() + role.slice(1) : '';
}

function fmtTime(ms) {
  try { return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }); } catch { return ''; }
}

export class RoomView {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.state = null;
    this.title = h('h2.room-name', `Room #${roomId}`);
    this.statusPill = h('span.pill', '…');
    this.resultSlot = h('div.result-slot');
    this.game = h('div.game-area', h('p.loading', 'Loading the room…'));
    this.seats = h('ol.seats', { 'aria-label': 'Seats' });
    this.buttons = h('div.room-actions');
    this.fair = h('details.fair', h('summary', 'Fair dice'), h('div.fair-body'));
    this.chatList = h('ol.chat-list', { 'aria-live': 'polite', 'aria-label': 'Chat messages' });
    this.chatInput = h('input#chat-input', { maxLength: 500, placeholder: 'Say something…', 'aria-label': 'Chat message', autocomplete: 'off' });
    const chatForm = h('form.chat-form', {
      onsubmit: (ev) => {
        ev.preventDefault();
        const text = this.chatInput.value.trim();
        if (!text) return;
        this.app.net.send({ type: 'chat', room: this.roomId, text: text.slice(0, 500) });
        this.chatInput.value = '';
      },
    }, this.chatInput, h('button', { type: 'submit', 'aria-label': 'Send chat message' }, 'Send'));
    this.el = h('section.room', { 'data-room': roomId },
      h('header.room-head',
        h('a.back', { href: '#/', 'aria-label': 'Back to the lobby' }, '← Lobby'),
        this.title, this.statusPill),
      this.resultSlot,
      h('div.room-main',
        this.game,
        h('aside.room-side',
          h('div.card', h('h3', 'Players'), this.seats, this.buttons),
          h('div.card.chat', h('h3', 'Chat'), this.chatList, chatForm),
          h('div.card', this.fair))));
    for (const m of app.chats.get(roomId) || []) this.addChat(m);
  }

  destroy() {}

  unknownRoom() {
    clear(this.game).append(h('div.card', h('p', `There is no room #${this.roomId}.`),
      h('a', { href: '#/' }, 'Back to the lobby')));
  }

  update(st) {
    this.state = st;
    const seat = mySeat(this.roomId);
    this.title.textContent = `${GAME_LABEL[st.game] || st.game} · #${this.roomId}`;
    this.statusPill.textContent = st.status;
    this.statusPill.className = `pill pill-${st.status}`;
    this.renderResult(st);
    this.renderSeats(st, seat);
    this.renderButtons(st, seat);
    this.renderGame(st, seat);
    this.renderFair(st);
  }

  renderResult(st) {
    clear(this.resultSlot);
    if (st.status !== 'finished' || !st.result) return;
    const text = describeResult(st);
    const r = st.result;
    const seat = mySeat(this.roomId);
    let extra = '';
    if (seat !== null && r.winner !== undefined && r.winner !== null) extra = r.winner === seat ? 'You win!' : 'You lose.';
    const winnerName = r.winner != null && st.seats[r.winner] ? st.seats[r.winner].name : null;
    this.resultSlot.append(h('div.result-banner', { role: 'status' },
      h('span#result', text),
      winnerName ? h('span.result-name', ` (${winnerName})`) : null,
      extra ? h('span.result-you', ` ${extra}`) : null,
      h('a.result-back', { href: '#/' }, 'Back to the lobby')));
  }

  renderSeats(st, seat) {
    const ul = clear(this.seats);
    const toAct = new Set(st.to_act || []);
    for (const s of st.seats || []) {
      const free = s.name === null || s.name === undefined;
      const li = h('li.seat', {
        'data-seat': s.seat, class: [free ? 'free' : '', toAct.has(s.seat) && st.status === 'playing' ? 'to-act' : '',
          s.seat === seat ? 'mine' : '', `role-${s.role}`],
      },
      h('span.dot', { class: free ? 'dot-free' : s.connected || s.bot ? 'dot-on' : 'dot-off',
        title: free ? 'free' : s.connected || s.bot ? 'connected' : 'disconnected',
        'aria-label': free ? 'free' : s.connected || s.bot ? 'connected' : 'disconnected' }),
      h('span.token', { class: `token-${s.role}`, 'aria-hidden': 'true' }),
      h('span.role', roleLabel(s.role)),
      h('span.name', free ? h('em', 'free') : s.name),
      s.bot ? h('span.badge.bot', 'bot') : null,
      s.seat === seat ? h('span.badge.you', 'you') : null,
      toAct.has(s.seat) && st.status === 'playing' ? h('span.turn-mark', { title: 'to play' }, '◀ to play') : null);
      if (free && st.status === 'waiting') {
        const btns = h('span.seat-buttons');
        if (seat === null) {
          btns.append(h('button.take-seat', {
            type: 'button', 'data-seat': s.seat, 'aria-label': `Take the ${roleLabel(s.role)} seat`,
            onclick: () => this.app.net.request({ type: 'join', room: this.roomId, seat: s.seat }).catch(() => {}),
          }, 'Take seat'));
        }
        btns.append(h('button.add-bot', {
          type: 'button', 'data-seat': s.seat, 'aria-label': `Add a bot in the ${roleLabel(s.role)} seat`,
          onclick: () => this.app.net.request({ type: 'add_bot', room: this.roomId, seat: s.seat }).catch(() => {}),
        }, 'Add bot'));
        li.append(btns);
      }
      ul.append(li);
    }
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
          if (!window.confirm('Resign this match? Your opponent wins.')) return;
          this.app.net.request({ type: 'resign', room: this.roomId }).catch(() => {});
        },
      }, 'Resign'));
    }
    if (seat === null) box.append(h('p.watching-note', st.status === 'waiting' ? 'You are watching. Take a free seat to play.' : 'You are watching.'));
  }

  renderGame(st, seat) {
    const area = clear(this.game);
    if (st.game === 'ur') {
      area.append(renderUr(st, { mySeat: seat, onAct: (action) => this.act(action) }));
    } else {
      area.append(h('div.card', h('p', `${GAME_LABEL[st.game] || st.game}: this client cannot show this game yet.`)));
    }
  }

  act(action) {
    const st = this.state;
    if (!st) return;
    // One action per state: stop further clicks until the next state (or an error) re-renders.
    for (const el of this.game.querySelectorAll('.legal')) {
      el.classList.remove('legal');
      el.classList.add('sent');
      if (el.tagName === 'BUTTON') el.disabled = true;
    }
    this.app.net.send({ type: 'act', room: this.roomId, ply: st.ply, action });
  }

  renderFair(st) {
    const body = this.fair.querySelector('.fair-body');
    clear(body);
    body.append(h('p', 'Before anyone sat down the server committed to its secret seed:'),
      h('dl',
        h('dt', 'commit (SHA-256 of the server seed)'), h('dd', h('code.hash#commit', st.commit || '—'))));
    if (st.status === 'finished' && st.server_seed) {
      const seeds = (st.client_seeds || []).map((cs, i) => h('li', `${roleLabel(st.seats[i]?.role) || `seat ${i}`}: `,
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
