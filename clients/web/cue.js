// cue.js: "your turn" for a room whose tab is in the background (room.js). When this player's turn
// begins and the page is not seen, the page title says so ("● Your turn · Quinteto #12") until the tab
// is seen or the turn is played; a short tone (WebAudio: two notes made on the spot, no audio file) and
// a browser notification follow if the player ticked them in the room's preferences (both off by
// default; the notification's permission is asked only when its box is ticked). A turn is cued once:
// when it begins in a hidden tab, or when the tab is hidden during it.
//
// app.cues (a test hook) lists what was done: 'title', 'sound', 'notification'.

export class TurnCue {
  constructor(app, roomId) {
    this.app = app;
    this.roomId = roomId;
    this.mine = false;     // it is this player's turn now
    this.cued = false;     // this turn was cued
    this.showing = false;  // the title says "your turn"
    this.text = null;      // {title, body} of the current turn
    this.note = null;      // the notification shown, closed when the turn is seen or played
    this.onVisible = () => this.visibility();
    document.addEventListener('visibilitychange', this.onVisible);
    this.onGesture = () => { if (this.app.prefs.turnSound) this.unlockSound(); };
    document.addEventListener('pointerdown', this.onGesture, true);
    document.addEventListener('keydown', this.onGesture, true);
  }

  static canNotify() { return typeof window.Notification === 'function'; }

  // Asks the browser for the permission to notify (only from the player's tick); true when granted.
  static async askPermission() {
    if (!TurnCue.canNotify()) return false;
    if (Notification.permission === 'granted') return true;
    if (Notification.permission === 'denied') return false;
    try { return (await Notification.requestPermission()) === 'granted'; } catch { return false; }
  }

  static hidden() { return document.visibilityState === 'hidden'; }

  // The page title: `base`, or the cue while it shows.
  title(base) { return this.showing && this.text ? this.text.title : base; }

  // Called with every state: whether it is this player's turn, and the words of the cue.
  turn(mine, text) {
    if (!mine) { this.mine = false; this.cued = false; this.clear(); return; }
    this.text = text;
    if (!this.mine) { this.mine = true; this.cued = false; }
    if (!this.cued && TurnCue.hidden()) this.fire();
  }

  fire() {
    this.cued = true;
    this.showing = true;
    this.record('title');
    if (this.app.prefs.turnSound && this.tone()) this.record('sound');
    if (this.app.prefs.turnNotify && this.notify()) this.record('notification');
  }

  record(what) {
    if (!this.app.cues) this.app.cues = [];
    this.app.cues.push(what);
    if (this.app.cues.length > 100) this.app.cues.shift();
  }

  visibility() {
    if (!TurnCue.hidden()) this.clear();
    else if (this.mine && !this.cued) { this.fire(); document.title = this.text.title; }
  }

  // The turn was seen or played: the title comes back (the room sets it from title()), the notification goes.
  clear() {
    const was = this.showing;
    this.showing = false;
    if (this.note) { try { this.note.close(); } catch { /* already gone */ } this.note = null; }
    if (was && this.app.view && this.app.view.pageTitle) document.title = this.app.view.pageTitle();
  }

  notify() {
    if (!TurnCue.canNotify() || Notification.permission !== 'granted') return false;
    try {
      this.note = new Notification(this.text.title, { body: this.text.body, tag: `quinteto-turn-${this.roomId}` });
      this.note.onclick = () => { window.focus(); this.note?.close(); };
      return true;
    } catch { return false; } // some browsers allow notifications only from a service worker
  }

  // An AudioContext may start only from a gesture: made (or resumed) on the tick and on the player's clicks.
  unlockSound() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!TurnCue.audio) TurnCue.audio = new Ctx();
      if (TurnCue.audio.state === 'suspended') TurnCue.audio.resume().catch(() => {});
    } catch { /* no audio here */ }
  }

  // Two short soft notes (A5 then E6), a quarter of a second in all.
  tone() {
    this.unlockSound();
    const ac = TurnCue.audio;
    if (!ac) return false;
    try {
      const now = ac.currentTime;
      for (const [freq, at] of [[880, 0], [1318.5, 0.12]]) {
        const osc = ac.createOscillator();
        const gain = ac.createGain();
        osc.type = 'sine';
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.12);
        osc.connect(gain).connect(ac.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.13);
      }
      return true;
    } catch { return false; }
  }

  destroy() {
    this.mine = false;
    this.clear();
    document.removeEventListener('visibilitychange', this.onVisible);
    document.removeEventListener('pointerdown', this.onGesture, true);
    document.removeEventListener('keydown', this.onGesture, true);
  }
}
TurnCue.audio = null; // one AudioContext for the page
