// room.js: the room view (route #/room/<id>): seats, the game, the move log, the legend and the
// board in words, the result banner, chat and the "fair dice" details. It knows no game: the game
// module (games/registry.js) gets three elements of its own (board, side, panel) once, and
// update(state) with every state after that, so what a player has half-done in the game view
// survives states that do not change it. The skeleton is built once per room; the chat input keeps
// its text across updates.
//
// An action sent waits for its answer: the game area is marked `sending` (its clickable parts are
// inert) until the ply moves on, an error comes back, or the connection is made again.
//
// Keyboard: entering a room puts focus on its heading; the arrow keys move focus among the game's
// clickable parts (data-click) along the arrow's axis, each press further that way (never back to where
// it came from), and stop at the edge; Enter plays, the game's shortcuts (its `shortcuts`) and Q (resign)
// work anywhere but in a text field, and after every state focus goes back to the board (the same part if
// it is still there).
//
// The live region (core.announce) says what concerns this player's seat (its turn, the actions that
// touch its pieces: module.concerns, its seat's changes) and the results; the other seats' moves are
// in the log only. A spectator hears whose turn it is, at most once every few seconds.
//
// Seats are named by module.seatLabel ("Red hunter"); a seat out of play in a match that goes on
// (module.seatOut, or this player's own resignation) is marked "out", and its player has no Resign.
//
// Your turn in a background tab: the page title says so until the tab is seen or the turn is played;
// a short tone (WebAudio) and a browser notification are the player's choice (off by default, the
// notification's permission asked only when it is ticked). Each turn is cued once.
//
// When this player's seat has legal actions, the position is rebuilt locally by the rules module
// (preview.js) and the game view may ask what an action would do (ctx.preview) before sending it;
// every state replaces that position: the server stays the authority.
//
// Ratings (issue 26): a seat held by an account shows its name linked to its player page and its rating in the
// room's game (levels.js seatPlayer); a rated room has a "Rated" tag; when a rated match here ends and this
// player's rating moves (the `account` push, app.js), the result says by how much.

import { h, clear } from './dom.js';
import { app as shared, mySeat, navigate, announce, reducedMotion, savePrefs, toast } from './core.js';
import { TurnCue } from './cue.js';
import { translator, fmtTime } from './i18n.js';
import strings from './i18n/room.js';
import { gameModule, gameLabel } from './games/registry.js';
import { capitalize, describeOptionsDefault } from './games/common.js';
import { clientSeed, seedUsed, seedField } from './seed.js';
import { gameOptions, clockLeft, fmtClock, lowAt, clockTag, idleLine } from './clock.js';
import { LocalRules } from './preview.js';
import { levelSelect, botBadge, levelLabel, standInLevel, seatName, seatPlayer } from './levels.js';

// This view's words (i18n/room.js, loaded with it), then the shell's.
const t = translator(strings);

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
// A spectator hears whose turn it is at most this often (with five bots turns change several times a second).
const SPECTATOR_TURN_MS = 5000;
const FOLLOW_MS = 30000; // how long a room whose node is down is asked for again (unreachable())

export class RoomView {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.state = null;
    this.module = null;   // the game module, once the first state named the game
    this.gameView = null; // what module.createView() returned
    this.sentAt = null;   // ply of the action sent and not yet answered
    this.focusToken = null; // data-click of the game part that had focus, to give it back after a state
    this.forcedAt = null; // ply at which the only possible action was scheduled
    this.lastTurnKey = '';
    this.lowSaid = new Set(); // "ply:running_since" of my clock's low-time warnings already announced
    this.clockTimer = null;   // redraws the running clocks while one runs
    this.local = new LocalRules(() => this.previewReady()); // the state's position in the local rules
    this.resigned = false;    // this player resigned here (the server said `resigned`): out of play
    this.spectatorTurnAt = 0; // when a spectator last heard whose turn it is
    this.cue = new TurnCue(app, roomId);
    // Focus lands here on entering the room (not on the page body), so a screen reader says where it is.
    this.title = h('h1.room-name', { tabindex: '-1' }, t('room.title', { id: roomId }));
    this.optionTags = h('span.room-options');
    this.statusPill = h('span.pill', '…');
    this.spectators = h('p#spectators.spectators', { 'data-count': '0' });
    this.rematchSlot = h('div.rematch-slot');
    this.muteBox = h('div#chat-mutes.chat-mutes', { role: 'group', 'aria-label': t('chat.mutes') });
    this.lastRematchKey = '';
    this.rulesLink = h('a.rules-link.head-link', { href: '#/' }, t('room.rules'));
    this.noticeSlot = h('div.notice-slot');
    // The room's node in a cluster is down, or cannot be reached (unreachable()); hidden otherwise.
    this.followSlot = h('div#room-follow.notice', { hidden: true });
    this.idleLine = h('p#idle-limit.idle-limit', { hidden: true });
    this.resultSlot = h('div.result-slot');
    // The board as a labelled region that focus can rest on; its description is the game's text
    // picture of it ("The board in words"), read when focus arrives.
    this.board = h('div.game-board', { tabindex: '-1', role: 'region', 'aria-label': t('room.board'),
      'aria-describedby': 'board-words' }, h('p.loading', t('room.loading')));
    this.panel = h('div.game-panel');
    this.side = h('div.game-side');
    this.gameArea = h('div.game-column', this.board, this.panel);
    this.seats = h('ol.seats', { 'aria-label': t('room.seats') });
    // The level of the bots "Add bot" seats (levels.js), shown while a seat is free before the match.
    this.botLevel = levelSelect('room-bot-level');
    this.botLevelRow = h('div.level-row.room-bot-level', { hidden: true },
      h('label', { for: 'room-bot-level' }, t('level.addBot')), this.botLevel.el);
    this.buttons = h('div.room-actions');
    this.logList = h('ol#move-log.log-list');
    this.legend = h('div.legend-body');
    this.words = h('div#board-words.board-words');
    this.fair = h('details.fair', h('summary', t('fair.title')), h('div.fair-body'));
    this.fairCard = h('div.card.fair-card', this.fair);
    this.outNote = h('p#out-note.out-note', { hidden: true });
    this.chatList = h('ol.chat-list', { 'aria-label': t('chat.list'), tabindex: '0' });
    this.el = h('section.room', { 'data-room': roomId },
      h('header.room-head',
        h('a.back', { href: '#/' }, t('room.back')),
        this.title, this.optionTags, this.statusPill, this.rulesLink),
      this.followSlot,
      this.noticeSlot,
      this.resultSlot,
      this.rematchSlot,
      h('div.room-main',
        this.gameArea,
        h('aside.room-side',
          this.side,
          h('section.card.players', h('h2', t('room.players')), this.seats, this.botLevelRow, this.spectators, this.idleLine, this.outNote, this.buttons, this.invite(), this.prefsForm()),
          h('section.card.log', h('h2#log-title', t('log.title')), this.logList),
          h('details.card.legend', { open: true }, h('summary', t('room.legend')), this.legend,
            h('p.keys', t('room.keys'))),
          h('details.card.words', h('summary', t('room.words')), this.words),
          h('section.card.chat', h('h2', t('chat.title')), this.chatList, this.chatForm(), this.muteBox),
          this.fairCard)));
    for (const m of app.chats.get(roomId) || []) this.addChat(m);
    this.gameArea.addEventListener('keydown', (ev) => this.onGameKey(ev));
    // A click or key that redraws the game without a state (selecting a piece) must not drop focus
    // to the page: put it back once the handlers have run.
    for (const type of ['click', 'keydown']) {
      this.gameArea.addEventListener(type, () => setTimeout(() => this.restoreFocus(), 0), true);
    }
    this.gameArea.addEventListener('focusin', (ev) => {
      const tok = ev.target.closest?.('[data-click]')?.dataset.click;
      this.focusToken = tok || 'board';
    });
    this.onKey = (ev) => this.onShortcut(ev);
    document.addEventListener('keydown', this.onKey);
    // The view is put on the page right after it is built (app.js): then focus goes to the heading,
    // unless the person already put it somewhere.
    queueMicrotask(() => {
      const a = document.activeElement;
      if (this.el.isConnected && (!a || a === document.body || !a.isConnected)) this.title.focus({ preventScroll: true });
    });
  }

  invite() {
    const url = `${location.origin}${location.pathname}#/room/${encodeURIComponent(this.roomId)}`;
    const field = h('input#invite-url', { type: 'text', readOnly: true, value: url });
    const copy = h('button#copy-invite', {
      type: 'button',
      onclick: async () => {
        let ok = false;
        try { await navigator.clipboard.writeText(url); ok = true; } catch { /* not allowed: select it */ }
        if (!ok) { field.select(); ok = document.execCommand && document.execCommand('copy'); }
        toast(ok ? t('invite.copied') : t('invite.select'), 'invite');
      },
    }, t('invite.copy'));
    return h('div.invite', h('label', { for: 'invite-url' }, t('invite.label')), h('div.invite-row', field, copy));
  }

  // The room's preferences: play a forced move for me, and how to be told it is my turn when the tab is
  // in the background (a tone, a browser notification: both off until ticked).
  prefsForm() {
    const box = h('input#pref-forced', {
      type: 'checkbox', checked: !!this.app.prefs.forced,
      onchange: () => { this.app.prefs.forced = box.checked; savePrefs(); },
    });
    const sound = h('input#pref-sound', {
      type: 'checkbox', checked: !!this.app.prefs.turnSound,
      onchange: () => {
        this.app.prefs.turnSound = sound.checked;
        savePrefs();
        if (sound.checked) this.cue.unlockSound(); // a tick is the gesture that lets the page play sound
      },
    });
    const canNotify = TurnCue.canNotify();
    const notify = h('input#pref-notify', {
      type: 'checkbox', checked: canNotify && !!this.app.prefs.turnNotify, disabled: !canNotify,
      onchange: async () => {
        if (!notify.checked) { this.app.prefs.turnNotify = false; savePrefs(); return; }
        const ok = await TurnCue.askPermission();
        notify.checked = ok;
        this.app.prefs.turnNotify = ok;
        savePrefs();
        if (!ok) toast(t('pref.notifyDenied'), 'notify-denied');
      },
    });
    return h('fieldset.prefs', h('legend', t('pref.title')),
      h('label.check.pref', box, ' ', t('pref.forced')),
      h('label.check.pref', sound, ' ', t('pref.sound')),
      h('label.check.pref', notify, ' ', t(canNotify ? 'pref.notify' : 'pref.notifyNone')));
  }

  chatForm() {
    const input = h('input#chat-input', { maxLength: 500, placeholder: t('chat.placeholder'), autocomplete: 'off' });
    return h('form.chat-form', {
      onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        this.app.net.send({ type: 'chat', room: this.roomId, text: text.slice(0, 500) });
        input.value = '';
      },
    }, h('label.sr-only', { for: 'chat-input' }, t('chat.label')), input, h('button', { type: 'submit' }, t('chat.send')));
  }

  // Redraws every seat's clock from the last state (counting down locally) and says once, to the
  // screen reader too, when my own clock runs low. Runs every 200 ms while a clock runs.
  tickClocks() {
    const st = this.state;
    const me = mySeat(this.roomId);
    const low = lowAt(st && st.options && st.options.clock);
    let running = false;
    for (const el of this.seats.querySelectorAll('.clock')) {
      const s = st.seats[Number(el.dataset.seat)];
      if (!s || !s.clock) continue;
      const left = clockLeft(s.clock);
      const on = s.clock.running_since != null && st.status === 'playing';
      running ||= on && left > 0;
      el.textContent = fmtClock(left);
      el.classList.toggle('running', on);
      el.classList.toggle('low', on && left <= low);
      const key = `${st.ply}:${s.clock.running_since}`;
      if (on && left <= low && s.seat === me && !this.lowSaid.has(key)) {
        this.lowSaid.add(key);
        announce(t('clock.low', { time: fmtClock(left) }));
      }
    }
    if (running && !this.clockTimer) this.clockTimer = setInterval(() => this.tickClocks(), 200);
    if (!running && this.clockTimer) { clearInterval(this.clockTimer); this.clockTimer = null; }
  }

  destroy() {
    this.followEnd();
    clearInterval(this.clockTimer);
    clearTimeout(this.spectatorTimer);
    this.cue.destroy();
    document.title = t('app.title');
    document.removeEventListener('keydown', this.onKey);
    clearTimeout(this.forcedTimer);
    this.local.onReady = null;
    if (this.gameView && this.gameView.destroy) this.gameView.destroy();
  }

  // A cluster's node hosting this room is down (`unavailable`, until a survivor adopts the room) or cannot
  // be reached (`room_unreachable`: 3 moves in a row led nowhere). Says so, on the page and in the live
  // region, and calls watch() again after a back-off with jitter, for up to FOLLOW_MS since the first; then
  // says the room cannot be reached and offers to try again (watch() absent: at once). The room's next
  // state (update()) ends it. A single server never answers a `watch` so.
  unreachable(code, watch) {
    if (code !== 'unavailable' && code !== 'room_unreachable') return;
    const f = this.follow || (this.follow = { since: Date.now(), attempt: 0, timer: null, key: null });
    // (room_unreachable too: nodes whose directories lag behind a death send the client to the dead one)
    const key = watch && Date.now() - f.since < FOLLOW_MS ? 'room.unavailable' : 'room.unreachable';
    const retry = () => { this.followEnd(); watch(); };
    clear(this.followSlot).append(h('p', t(key)),
      key === 'room.unreachable' && watch ? h('button#room-retry', { type: 'button', onclick: retry }, t('room.retry')) : '');
    this.followSlot.hidden = false;
    document.body.dataset.follow = key.slice(5);
    if (f.key !== key) announce(t(key));
    f.key = key;
    clearTimeout(f.timer);
    if (key === 'room.unavailable') f.timer = setTimeout(watch, Math.min(4000, 500 * 2 ** f.attempt++) * (1 - Math.random() / 2));
  }

  followEnd() {
    if (!this.follow) return;
    clearTimeout(this.follow.timer);
    this.follow = null;
    this.followSlot.hidden = true;
    delete document.body.dataset.follow;
  }

  unknownRoom() {
    clear(this.board).append(h('div.card', h('p', t('room.unknown', { id: this.roomId })),
      h('a', { href: '#/' }, t('room.back'))));
  }

  roleLabel(role) {
    return this.module && this.module.roleLabel ? this.module.roleLabel(role) : capitalize(role);
  }

  // A seat for people ("Red hunter"): the module's seatLabel, else its role.
  seatLabel(seat) {
    if (this.module && this.module.seatLabel) return this.module.seatLabel(seat);
    return this.roleLabel((this.state?.seats || [])[seat]?.role || '');
  }

  // Whether `seat` is out of play in a match still going: the game says so, or it is this player's
  // seat and they resigned.
  seatOut(st, seat) {
    if (!st || st.status !== 'playing' || seat === null || seat === undefined) return false;
    if (this.resigned && seat === mySeat(this.roomId)) return true;
    return !!(this.module && this.module.seatOut && this.module.seatOut(st, seat));
  }

  // The page title: the game and the room ("Quinteto #12"), or the your-turn cue (cue.js).
  pageTitle() {
    const st = this.state;
    const base = st ? t('room.pageTitle', { game: gameLabel(st.game), id: this.roomId }) : t('room.title', { id: this.roomId });
    return this.cue.title(base);
  }

  // `added`: the log entries this state brought (core.js roomLog), to append and to announce.
  update(st, added = []) {
    this.followEnd();
    const first = !this.state;
    this.state = st;
    if (this.sentAt !== null && st.ply !== this.sentAt) this.setSending(null);
    const seat = mySeat(this.roomId);
    this.title.textContent = `${gameLabel(st.game)} · #${this.roomId}`;
    this.statusPill.textContent = t(`status.${st.status}`);
    this.statusPill.className = `pill pill-${st.status}`;
    this.rulesLink.href = `#/rules/${encodeURIComponent(st.game)}`;
    this.local.update(st, seat);
    this.renderGame(st);
    this.renderOptions(st);
    this.renderNotice(st, seat);
    this.renderResult(st, seat);
    this.renderRematch(st, seat);
    this.renderSpectators(st);
    this.renderMutes();
    this.renderSeats(st, seat);
    this.tickClocks();
    this.renderButtons(st, seat);
    this.renderFair(st);
    this.renderWords(st);
    if (first) this.renderLog(); else this.appendLog(added);
    if (!first) this.speak(st, added, seat);
    this.cueTurn(st, seat);
    this.restoreFocus();
    this.playForced(st, seat);
  }

  // Tells the cue whether it is this player's turn now (cue.js says it once per turn, in a background tab).
  cueTurn(st, seat) {
    const legal = st.legal || [];
    const forced = this.app.prefs.forced && legal.length === 1 && !legal[0].roll; // played for the player (playForced)
    // A turn with something to do: not a throw made for the player that left nothing to play.
    const mine = seat !== null && st.status === 'playing' && (st.to_act || []).includes(seat) && legal.length > 0 &&
      !this.seatOut(st, seat) && !forced;
    const game = gameLabel(st.game);
    this.cue.turn(mine, {
      title: t('cue.title', { game, id: this.roomId }),
      body: (this.module && this.module.describeLast(st)) || t('announce.yourTurn'),
    });
    document.title = this.pageTitle();
  }

  // The room's options (`state.options`, defaults filled in) as short tags beside the title.
  renderOptions(st) {
    const own = gameOptions(st.options);
    const tags = this.module && this.module.describeOptions
      ? this.module.describeOptions(own) : describeOptionsDefault(own);
    const clock = clockTag(st.options);
    if (clock) tags.push(clock);
    clear(this.optionTags).append(...tags.map((x) => h('span.tag', x)),
      st.rated ? h('span.tag.rated-tag#rated-tag', { title: t('lobby.ratedTitle') }, t('lobby.ratedTag')) : '');
    this.optionTags.dataset.options = JSON.stringify(st.options || {});
    const idle = st.status !== 'finished' ? idleLine(st.options) : null;
    this.idleLine.textContent = idle || '';
    this.idleLine.hidden = !idle;
  }

  // A seated person who lost their connection during the match: said in words, not only by a dot.
  renderNotice(st, seat) {
    clear(this.noticeSlot);
    if (st.status !== 'playing') return;
    const gone = (st.seats || []).filter((s) => s.name != null && !s.bot && (!s.connected || s.stand_in) && s.seat !== seat);
    if (!gone.length) return;
    this.noticeSlot.append(h('div#notice-disconnected.notice',
      gone.map((s) => t(s.stand_in ? 'notice.standIn' : 'notice.disconnected',
        { name: s.name, role: this.seatLabel(s.seat) })).join(' ')));
  }

  renderResult(st, seat) {
    clear(this.resultSlot);
    if (st.status !== 'finished' || !st.result) return;
    const r = this.module ? this.module.describeResult(st) : { text: JSON.stringify(st.result), winners: [] };
    const winners = r.winners || [];
    let extra = '';
    if (seat !== null && winners.length) extra = winners.includes(seat) ? t('result.win') : t('result.lose');
    const names = winners.map((w) => seatName(st.seats[w])).filter(Boolean);
    const ch = st.rated && this.ratingChange?.game === st.game ? this.ratingChange : null;
    this.resultSlot.append(h('div.result-banner',
      h('span#result', r.text),
      names.length ? h('span.result-name', ` (${names.join(', ')})`) : null,
      extra ? h('span.result-you', ` ${extra}`) : null,
      ch ? h('span#rating-change.rating-change', { 'data-from': ch.from, 'data-to': ch.to },
        ` ${ch.text}`) : null,
      h('a#replay-link.result-back', { href: `#/replay/${encodeURIComponent(this.roomId)}` }, t('archive.replayThis')),
      h('a.result-back', { href: '#/' }, t('room.back'))));
  }

  // This player's rating in this room's game moved ({game, from, to, text}: account.js, from the `account` push
  // after a rated match): shown with the result of a finished rated room.
  // (The push may come before the finished state: kept, and shown by renderResult once the match is over.)
  ratingChanged(ch) {
    if (this.state && (!this.state.rated || this.state.game !== ch.game)) return;
    this.ratingChange = ch;
    if (this.state) this.renderResult(this.state, mySeat(this.roomId));
  }

  renderSpectators(st) {
    const n = st.spectators || 0;
    this.spectators.textContent = t('room.spectators', { n });
    this.spectators.dataset.count = String(n);
  }

  // A finished room's rematch: offer it, or accept or decline the offer, then follow it to the new room
  // (PROTOCOL.md, Rematch). Spectators see where it stands and, once it opens, a link to the new room.
  renderRematch(st, seat) {
    const box = clear(this.rematchSlot);
    if (st.status !== 'finished') return;
    const r = st.rematch || null;
    const name = (k) => seatName(st.seats[k]) || this.seatLabel(k);
    const send = (accept) => this.app.net.request({ type: 'rematch', room: this.roomId, accept }).catch(() => {});
    const part = h('div#rematch.rematch.card', { role: 'group', 'aria-labelledby': 'rematch-title',
      'data-status': r ? r.status : 'none' }, h('h2#rematch-title', t('rematch.title')));
    const key = r ? `${r.status}|${r.by}|${r.accepted.join(',')}` : '';
    if (r && r.status === 'accepted') {
      part.append(h('p', t('rematch.done')),
        h('a#rematch-go', { href: `#/room/${encodeURIComponent(r.room)}` }, t('rematch.go')));
    } else if (r && r.status === 'offered') {
      part.append(h('p#rematch-offered', t('rematch.offered', { name: name(r.by) })),
        h('p#rematch-accepted', t('rematch.acceptedBy', { names: r.accepted.map(name).join(', ') })));
      if (seat !== null && !r.accepted.includes(seat)) {
        part.append(h('div.rematch-buttons',
          h('button#rematch-accept.primary', { type: 'button', onclick: () => send(true) }, t('rematch.accept')),
          h('button#rematch-decline', { type: 'button', onclick: () => send(false) }, t('rematch.decline'))));
      } else if (seat !== null) {
        part.append(h('p.note', t('rematch.waiting')),
          h('button#rematch-decline', { type: 'button', onclick: () => send(false) }, t('rematch.withdraw')));
      }
    } else {
      if (r) part.append(h('p#rematch-ended', t(`rematch.${r.status}`)));
      if (seat !== null) {
        part.append(h('button#rematch-offer.primary', { type: 'button', onclick: () => send(true) }, t('rematch.offer')));
      }
    }
    box.append(part);
    if (key !== this.lastRematchKey && r) {
      if (r.status === 'offered' && seat !== null && !r.accepted.includes(seat)) announce(t('rematch.offered', { name: name(r.by) }));
      else if (r.status !== 'offered') announce(r.status === 'accepted' ? t('rematch.done') : t(`rematch.${r.status}`));
    }
    this.lastRematchKey = key;
  }

  // For a seated player: a toggle per other occupied human seat and one for the spectators; a muted one's chat
  // lines no longer reach this player (the server leaves them out).
  renderMutes() {
    const box = clear(this.muteBox);
    const st = this.state;
    const seat = mySeat(this.roomId);
    if (!st || seat === null) { box.hidden = true; return; }
    const m = this.app.mutes.get(this.roomId) || { seats: [], spectators: false };
    const toggle = (id, label, on, body) => h('button.mute', {
      type: 'button', id, 'aria-pressed': String(on),
      onclick: () => this.app.net.request({ type: 'mute', room: this.roomId, ...body, muted: !on }).catch(() => {}),
    }, label);
    const items = (st.seats || []).filter((s) => s.seat !== seat && s.name != null && !s.bot)
      .map((s) => toggle(`mute-seat-${s.seat}`, t('chat.mute', { name: s.name }), m.seats.includes(s.seat), { seat: s.seat }));
    items.push(toggle('mute-spectators', t('chat.muteSpectators'), m.spectators, { spectators: true }));
    box.hidden = false;
    box.append(...items);
  }

  seatItem(st, s, seat, toAct) {
    const free = s.name === null || s.name === undefined;
    const acting = toAct.has(s.seat) && st.status === 'playing';
    const on = s.connected || s.bot;
    const out = !free && this.seatOut(st, s.seat);
    const role = this.seatLabel(s.seat);
    const conn = free ? t('seat.free') : on ? t('seat.connected') : t('seat.disconnected');
    const li = h('li.seat', {
      'data-seat': s.seat,
      class: [free ? 'free' : '', acting ? 'to-act' : '', s.seat === seat ? 'mine' : '', out ? 'out' : '', `role-${s.role}`, `seat-c${s.seat}`],
      'data-out': out ? 'true' : null,
    },
    h('span.dot', { class: free ? 'dot-free' : on ? 'dot-on' : 'dot-off', title: conn }),
    h('span.token', { 'aria-hidden': 'true' }),
    h('span.role', role),
    free ? h('span.name', h('em', t('seat.free'))) : seatPlayer(s), // an account's: linked, with its rating
    s.bot ? botBadge(s.name, s.bot) : null,
    s.stand_in ? h('span.badge.stand-in', { title: t('seat.standInLabel'), 'data-level': standInLevel(st) },
      `${t('badge.standIn')} · ${levelLabel(standInLevel(st))}`) : null,
    s.seat === seat ? h('span.badge.you', t('badge.you')) : null,
    !free && !on ? h('span.badge.off', t('seat.disconnected')) : null,
    out ? h('span.badge.out', t('seat.out')) : null,
    s.clock ? h('span.clock', { 'data-seat': s.seat, role: 'timer', 'aria-label': t('clock.seatLabel', { role }) },
      fmtClock(clockLeft(s.clock))) : null,
    acting ? h('span.turn-mark', t('seat.toPlay')) : null);
    if (s.stand_in && s.seat === seat && st.status === 'playing') {
      li.append(h('button#take-back.primary', {
        type: 'button', onclick: () => this.app.net.request({ type: 'join', room: this.roomId }).catch(() => {}),
      }, t('seat.takeBack')));
    }
    if (free && st.status === 'waiting') {
      const btns = h('span.seat-buttons');
      if (seat === null) {
        btns.append(h('button.take-seat', {
          type: 'button', 'data-seat': s.seat, title: t('seat.takeLabel', { role }),
          onclick: () => {
            // A game without dice has no seed to add to them.
            if (this.module && this.module.dice === false) {
              this.app.net.request({ type: 'join', room: this.roomId, seat: s.seat }).catch(() => {});
              return;
            }
            this.app.net.request({ type: 'join', room: this.roomId, seat: s.seat, client_seed: clientSeed() })
              .then(seedUsed, () => {});
          },
        }, t('seat.take')));
      }
      if (!st.rated) { // (bots play casual only: a rated room's seats are for accounts)
        btns.append(h('button.add-bot', {
          type: 'button', 'data-seat': s.seat, title: t('seat.addBotLabel', { role }),
          onclick: () => this.app.net.request({ type: 'add_bot', room: this.roomId, seat: s.seat, level: this.botLevel.value })
            .catch(() => {}),
        }, t('seat.addBot')));
      }
      li.append(btns);
    }
    return li;
  }

  renderSeats(st, seat) {
    const ul = clear(this.seats);
    const adding = st.status === 'waiting' && !st.rated && (st.seats || []).some((x) => x.name === null || x.name === undefined);
    if (adding && this.botLevelGame !== st.game) { this.botLevelGame = st.game; this.botLevel.refill(st.game); }
    this.botLevelRow.hidden = !adding;
    const toAct = new Set(st.to_act || []);
    for (const s of st.seats || []) ul.append(this.seatItem(st, s, seat, toAct));
  }

  // Leave, Resign and the watcher's note. The buttons are made once and shown or hidden, never rebuilt: with
  // bots a state comes every few milliseconds, and a button replaced between press and release takes no click.
  renderButtons(st, seat) {
    if (!this.leaveButton) {
      this.leaveButton = h('button.leave', {
        type: 'button',
        onclick: async () => {
          try {
            await this.app.net.request({ type: 'leave', room: this.roomId });
            navigate('#/');
          } catch { /* toast shown */ }
        },
      }, t('room.leave'));
      this.resignButton = h('button.resign.danger', { type: 'button', onclick: () => this.resign() }, t('room.resign'));
      this.buttons.append(this.leaveButton, this.resignButton);
    }
    const out = this.seatOut(st, seat);
    this.outNote.hidden = !out;
    this.outNote.textContent = out ? t('room.outNote') : '';
    this.leaveButton.hidden = !(seat !== null && st.status !== 'finished');
    this.leaveButton.title = st.status === 'playing' ? t('room.leaveKeeps') : t('room.leaveFrees');
    this.resignButton.hidden = !(seat !== null && st.status === 'playing' && !out);
    this.buttons.querySelector('.watching-note')?.remove();
    if (seat === null) this.buttons.append(h('p.watching-note', st.status === 'waiting' ? t('room.watchingWaiting') : t('room.watching')));
  }


  // Resigns this player's seat (after asking); a seat already out of play has nothing to resign (Q then
  // does nothing).
  resign() {
    const seat = mySeat(this.roomId);
    if (seat === null || this.state?.status !== 'playing' || this.seatOut(this.state, seat)) return;
    if (!window.confirm(t('room.resignConfirm'))) return;
    this.app.net.request({ type: 'resign', room: this.roomId }).then(() => {
      this.resigned = true;
      if (this.state) this.update(this.state);
    }, () => {});
  }

  // Creates the game's view on the first state, then only updates it.
  renderGame(st) {
    if (!this.gameView) {
      this.module = gameModule(st.game);
      clear(this.board);
      if (!this.module) {
        this.board.append(h('div.card', h('p', t('room.noModule', { game: gameLabel(st.game) }))));
        return;
      }
      this.el.classList.add(`game-${this.module.id}`);
      this.gameView = this.module.createView({
        board: this.board,
        side: this.side,
        panel: this.panel,
        mySeat: () => mySeat(this.roomId),
        act: (action) => this.act(action),
        preview: (action) => this.local.preview(action),
        reducedMotion,
      });
      clear(this.legend).append(legendList(this.module));
    }
    this.gameView.update(st);
  }

  // The rules module arrived after the state that wanted it: the game view draws its previews now.
  previewReady() {
    if (!this.gameView || !this.state) return;
    this.gameView.update(this.state);
    this.restoreFocus();
  }

  renderWords(st) {
    if (!this.module) return;
    clear(this.words).append(h('ul', this.module.describeBoard(st).map((line) => h('li', line))));
  }

  // --- the log -----------------------------------------------------------------------------------

  entryText(e) {
    const m = this.module;
    const seatInfo = (this.state?.seats || [])[e.seat] || {};
    const role = seatInfo.role ? this.seatLabel(e.seat) : '';
    switch (e.kind) {
      case 'action': return m ? m.notation(e) : JSON.stringify(e.action);
      case 'seat': return t(`log.${e.what}${e.what === 'sat' && e.bot ? 'Bot' : ''}`, { name: seatName(e) || '', role });
      case 'status': return e.what === 'started' ? t('log.started')
        : t('log.finished', { result: m && e.state ? m.describeResult(e.state).text : '' });
      case 'gap': return t('log.gap', { from: e.from, to: e.to });
      default: return '';
    }
  }

  logItem(e) {
    const text = this.entryText(e);
    if (e.kind !== 'action') return h('li.log-event', { 'data-kind': e.kind }, text);
    const btn = h('button.log-move', {
      type: 'button', 'data-ply': e.ply, 'aria-pressed': 'false',
      onclick: () => {
        const on = btn.getAttribute('aria-pressed') !== 'true';
        for (const b of this.logList.querySelectorAll('[aria-pressed="true"]')) b.setAttribute('aria-pressed', 'false');
        btn.setAttribute('aria-pressed', String(on));
        if (this.gameView && this.gameView.highlight) this.gameView.highlight(on ? e : null);
      },
    }, h('span.log-ply', String(e.ply)), ' ', text);
    return h('li.log-action', { class: `seat-c${e.seat}` }, btn);
  }

  // Newest first: the latest action is always in view without scrolling the list (setting
  // scrollTop after every state forced a layout of the whole page each time).
  renderLog() {
    clear(this.logList);
    const log = shared.logs.get(this.roomId) || [];
    const items = log.slice(-300).map((e) => this.logItem(e)).reverse();
    if (!items.length) items.push(h('li.log-empty', t('log.empty')));
    this.logList.append(...items);
  }

  appendLog(added) {
    if (!added.length) return;
    this.logList.querySelector('.log-empty')?.remove();
    for (const e of added) this.logList.prepend(this.logItem(e));
    while (this.logList.children.length > 300) this.logList.lastChild.remove();
  }

  // Whether the live region says log entry `e` to this player (seat: theirs, or null for a spectator
  // or a seat out of play): the match starting and ending and the seats' changes to everyone; an action
  // only to a seat it concerns (module.concerns: its own, one that touched its pieces). The log shows all.
  heard(e, seat) {
    if (e.kind === 'status' || e.kind === 'seat') return true;
    if (e.kind !== 'action' || seat === null) return false;
    return this.module ? this.module.concerns(e, seat) : e.seat === seat;
  }

  // The live region: what this state brought that concerns this player, then, when it became this
  // player's turn, "Your turn". A spectator (or a seat out of play) hears whose turn it is instead, at
  // most once every SPECTATOR_TURN_MS (the latest turn when the wait is over).
  speak(st, added, seat) {
    // Once out of play, the seat stays out to the end (the last move is not its own news either).
    if (seat !== null && this.seatOut(st, seat)) this.wasOut = true;
    const listener = seat !== null && !this.wasOut ? seat : null;
    const parts = added.filter((e) => this.heard(e, listener)).map((e) => this.entryText(e)).filter(Boolean);
    const toAct = st.status === 'playing' ? st.to_act || [] : [];
    const key = `${toAct.join(',')}|${st.status}`;
    if (key !== this.lastTurnKey && toAct.length) {
      if (listener !== null && toAct.includes(listener)) parts.push(t('announce.yourTurn'));
      else if (listener === null) this.spectatorTurn();
    }
    this.lastTurnKey = key;
    if (parts.length) announce(parts.join('. '));
  }

  spectatorTurn() {
    const say = () => {
      this.spectatorTimer = null;
      const now = this.state;
      const toAct = now && now.status === 'playing' ? now.to_act || [] : [];
      if (!toAct.length) return;
      this.spectatorTurnAt = Date.now();
      announce(t('announce.turn', { role: this.seatLabel(toAct[0]) }));
    };
    if (this.spectatorTimer) return; // the turn said when the wait is over is the latest one
    const wait = this.spectatorTurnAt + SPECTATOR_TURN_MS - Date.now();
    if (wait <= 0 || !this.spectatorTurnAt) say();
    else this.spectatorTimer = setTimeout(say, wait);
  }

  // A seat's only possible action (not a roll: rolling for the player is the room's option) is
  // announced, then played after a moment, unless the player turned that off.
  playForced(st, seat) {
    const legal = st.legal || [];
    if (!this.app.prefs.forced || seat === null || legal.length !== 1 || legal[0].roll || !this.module) return;
    if (this.forcedAt === st.ply || this.sentAt !== null) return;
    this.forcedAt = st.ply;
    announce(t('announce.forced', { action: this.module.describeAction(legal[0], st) }));
    clearTimeout(this.forcedTimer);
    this.forcedTimer = setTimeout(() => {
      if (this.state === st && this.sentAt === null) this.act(legal[0]);
    }, reducedMotion() ? 300 : 700);
  }

  // --- keyboard --------------------------------------------------------------------------------

  clickables() {
    return [...this.gameArea.querySelectorAll('[data-click]')].filter((el) => el.getClientRects().length);
  }

  // After a state redrew the game, focus goes back where it was: the same part, else the board.
  restoreFocus() {
    if (!this.focusToken) return;
    const a = document.activeElement;
    if (a && a !== document.body && this.gameArea.contains(a) && a.isConnected) return;
    if (a && a !== document.body && !this.gameArea.contains(a)) return; // the person is elsewhere: leave it
    const same = this.focusToken !== 'board' &&
      this.gameArea.querySelector(`[data-click="${CSS.escape(this.focusToken)}"]`);
    const target = same || this.clickables()[0] || this.board;
    target.focus({ preventScroll: true });
  }

  // An arrow key: focus moves to the nearest part further along that axis (by its centre; parts drawn on
  // the same spot are ordered as on the page), preferring those within 45 degrees of the arrow; with
  // nothing further that way it stays (the edge). Every press in one direction goes strictly further,
  // so the arrows never bounce between two parts.
  onGameKey(ev) {
    const dir = ARROWS[ev.key];
    if (!dir || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const items = this.clickables();
    if (!items.length) return;
    ev.preventDefault();
    const cur = items.includes(document.activeElement) ? document.activeElement : null;
    if (!cur) { items[0].focus(); return; }
    const best = nextAlong(items, cur, dir);
    if (best) best.focus();
  }

  onShortcut(ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey || ev.repeat) return;
    const tag = (ev.target && ev.target.tagName) || '';
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) || ev.target?.isContentEditable) return;
    // An arrow key with focus nowhere (on the page itself, or on the room's heading) brings it to the board.
    const a = document.activeElement;
    if (ARROWS[ev.key] && (a === document.body || !a || a === this.title)) {
      const first = this.clickables()[0];
      if (first) { ev.preventDefault(); first.focus(); }
      return;
    }
    const key = ev.key.toLowerCase();
    if (key === 'q') { ev.preventDefault(); this.resign(); return; }
    const sc = (this.module?.shortcuts || []).find((x) => x.key === key);
    if (!sc) return;
    const el = this.gameArea.querySelector(`[data-click="${CSS.escape(sc.token)}"]`);
    if (!el) return;
    ev.preventDefault();
    this.focusToken = this.focusToken || 'board';
    el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
  }

  // --- acting ----------------------------------------------------------------------------------

  setSending(ply) {
    this.sentAt = ply;
    this.gameArea.classList.toggle('sending', ply !== null);
  }

  // Sends `action` at the current ply; one action per ply until an answer comes.
  act(action) {
    const st = this.state;
    if (!st || this.sentAt !== null) return;
    if (this.gameArea.contains(document.activeElement)) this.focusToken = this.focusToken || 'board';
    this.setSending(st.ply);
    this.app.sent.push(action);
    this.app.net.send({ type: 'act', room: this.roomId, ply: st.ply, action });
  }

  // The action sent was refused (or the connection was made again): the game view takes clicks again.
  actionDone() {
    this.setSending(null);
    if (this.state && this.gameView) this.gameView.update(this.state);
    this.restoreFocus();
  }

  renderFair(st) {
    // A game without dice has no seeds to show nor to choose.
    const dice = !(this.module && this.module.dice === false);
    this.fairCard.hidden = !dice;
    if (!dice) { clear(this.fair.querySelector('.fair-body')); return; }
    const body = this.fair.querySelector('.fair-body');
    clear(body);
    body.append(h('p', t('fair.commitIntro')),
      h('dl',
        h('dt', t('fair.commit')), h('dd', h('code.hash#commit', st.commit || '—'))));
    if (st.status === 'finished' && st.server_seed) {
      const seeds = (st.client_seeds || []).map((cs, i) => h('li', `${this.seatLabel(i) || i}: `,
        h('code', cs === '' ? t('fair.none') : cs)));
      body.append(h('dl',
        h('dt', t('fair.serverSeed')), h('dd', h('code.hash#server-seed', st.server_seed)),
        h('dt', t('fair.clientSeeds')), h('dd', h('ul.seeds', seeds))),
      h('p.note', t('fair.verify')),
      h('p', h('a#verify-link', { href: `#/replay/${encodeURIComponent(this.roomId)}` }, t('archive.verifyHere'))));
    } else {
      body.append(h('p.note', t('fair.later')));
      if (st.status === 'waiting' && mySeat(this.roomId) === null) {
        body.append(seedField('room'));
        if (!this.seedShown) this.fair.open = true; // once: the seed is chosen before taking a seat
        this.seedShown = true;
      }
    }
  }

  addChat(m) {
    const who = m.seat === null || m.seat === undefined ? t('chat.watcher', { name: m.name }) : m.name;
    this.chatList.append(h('li', h('span.chat-time', fmtTime(m.at)), ' ', h('strong', who), ': ', h('span.chat-text', m.text)));
    while (this.chatList.children.length > 200) this.chatList.firstChild.remove();
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }
}

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// The part of `items` (in page order) that an arrow (dir: [dx, dy]) takes focus to from `cur`, or null at
// the edge. Parts are ordered along the arrow's axis by their centre, rounded to the pixel, then by page
// order (parts drawn on the same spot, like two stones on one home); only a part strictly further in
// that order can be next: each press goes further, so no two parts can send focus back and forth. Of
// those, the nearest wins, keeping close to the axis (within 45 degrees first).
export function nextAlong(items, cur, dir) {
  const c = centre(cur);
  const sign = dir[0] + dir[1];
  const pos = (p) => Math.round(dir[0] ? p.x : p.y) * sign;
  const at = items.indexOf(cur);
  let best = null;
  let bestScore = Infinity;
  items.forEach((el, i) => {
    if (el === cur) return;
    const p = centre(el);
    const further = pos(p) > pos(c) || (pos(p) === pos(c) && (i - at) * sign > 0);
    if (!further) return;
    const dx = p.x - c.x;
    const dy = p.y - c.y;
    const along = Math.max(dx * dir[0] + dy * dir[1], 0);
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = along + 2 * across + (across > along ? 100000 : 0) + Math.abs(i - at) * 1e-6;
    if (score < bestScore) { bestScore = score; best = el; }
  });
  return best;
}

// The game's legend as a definition list: each mark (a small drawing or a symbol) and its meaning.
export function legendList(module) {
  return h('dl.legend-list', module.legend().flatMap(({ mark, text }) => [
    h('dt', h('span.legend-mark', { 'aria-hidden': 'true' }, mark)), h('dd', text)]));
}
