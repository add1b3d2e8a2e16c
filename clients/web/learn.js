// learn.js: the guided first match (route #/learn/<game>), for a game whose module has a `tutorial`
// (games/base.js). The tutorial's script (games/<id>/tutorial.js) is played by lesson.js on the rules module
// (the server's own C in WebAssembly, loaded as the room's preview loads it) and drawn by the game's own view,
// as the replay's analysis board does: ctx.act plays the player's move on the page, and nothing is sent to the
// server (no name, no connection needed). A coach bubble beside the board (above it on a phone held upright)
// says what happens and what to do, in a live region; at a step that teaches a move the board offers that
// move only, elsewhere "Next" goes on (playing the bots' moves of the next step); "Back" returns to the step
// before as it was. On a phone the lesson's part of the page is scrolled to the top of the screen at each step
// (place()). The last step shows the result and the ways on: a real match of the game (#/?game=<id>), the rules,
// the lesson again. The step reached is kept for the page's life (app.learnAt): drawn again after a language
// switch or a look at the rules, the lesson comes back to it.
//
// Test hooks: the section's data-step (index), data-say (the coach key), data-ready; app.sent gets each move
// the player makes (as the room's sent actions); clicksFor(action) as in the room.

import { h, clear } from './dom.js';
import { translator } from './i18n.js';
import strings from './i18n/learn.js';
import { reducedMotion } from './core.js';
import { gameModule, gameLabel } from './games/registry.js';
import { loadCss } from './games/common.js';
import { rulesModule } from './preview.js';
import { Lesson, lessonSeats } from './lesson.js';

// This view's words (i18n/learn.js, loaded with it), then the shell's.
const t = translator(strings);

// Resolves once learn.css applies (the lesson is placed on the screen by its layout).
const cssReady = loadCss(new URL('./learn.css', import.meta.url));

// learn.css's phone layouts (upright, on its side): the lesson's part of the page is scrolled into place there.
const PHONE = '(max-width: 700px), (orientation: landscape) and (max-height: 500px)';

export class LearnView {
  constructor(app, gameId) {
    this.app = app;
    this.gameId = gameId;
    this.module = gameModule(gameId);
    this.lesson = null;
    this.state = null;
    this.home = h('a.back#learn-home', { href: '#/' }, t('rules.back'));
    if (!this.module || typeof this.module.tutorial !== 'function') {
      this.el = h('section.learn.card', h('h1.page-title', t('learn.none', { game: gameLabel(gameId) })), this.home);
      return;
    }
    this.heading = h('h1#learn-title.page-title', { tabindex: '-1' }, t('learn.heading', { game: gameLabel(gameId) }));
    this.progress = h('p#learn-progress.learn-progress');
    this.text = h('p#coach-text.coach-text', t('learn.loading'));
    this.result = h('p#result.learn-result', { hidden: true });
    this.backBtn = h('button#learn-back.secondary', { type: 'button', onclick: () => this.go(-1) }, t('learn.back'));
    this.nextBtn = h('button#learn-next.primary', { type: 'button', onclick: () => this.go(1) }, t('learn.next'));
    this.yourMove = h('p#learn-your-move.learn-your-move', { hidden: true }, t('learn.yourMove'));
    this.ways = h('div#learn-ways.learn-ways', { hidden: true },
      h('a#learn-play.button.primary', { href: `#/?game=${encodeURIComponent(gameId)}` }, t('learn.play', { game: gameLabel(gameId) })),
      h('a#learn-rules.button', { href: `#/rules/${encodeURIComponent(gameId)}` }, t('learn.rules')),
      h('button#learn-again.secondary', { type: 'button', onclick: () => this.restart() }, t('learn.again')));
    // The coach: its words are a live region (each new step is read out once), its buttons after them.
    this.coach = h('section#coach.coach.card', { 'aria-labelledby': 'coach-title' },
      h('h2#coach-title.coach-title', t('learn.coach')),
      h('div#coach-live', { 'aria-live': 'polite', 'aria-atomic': 'true' }, this.text, this.result),
      h('div.coach-nav', this.backBtn, this.nextBtn, this.yourMove),
      this.ways);
    this.board = h('div.game-board', { tabindex: '-1', role: 'region', 'aria-label': t('room.board'),
      'aria-describedby': 'learn-words' });
    this.panel = h('div.game-panel');
    this.side = h('div.game-side');
    this.words = h('div#learn-words.board-words');
    this.main = h('div.learn-main',
      this.coach,
      h('div.learn-board', this.board),
      h('div.learn-panel', this.panel),
      h('aside.learn-side', this.side, h('details.card.words', h('summary', t('room.words')), this.words)));
    this.el = h('section#learn.learn', { 'aria-labelledby': 'learn-title', 'data-game': gameId },
      h('header.learn-head', this.home, this.heading, this.progress), this.main);
    this.onKey = (ev) => this.key(ev);
    this.el.addEventListener('keydown', this.onKey);
    this.ready = this.start().catch((e) => this.fail(e.message));
  }

  async start() {
    const tutorialOf = this.module.tutorial().then((m) => m.default);
    const [tutorial, core] = await Promise.all([tutorialOf, rulesModule(), cssReady]);
    if (!core) throw new Error(t('learn.noModule'));
    this.tutorial = tutorial;
    this.t = translator(tutorial.strings);
    this.heading.textContent = this.t('learn.title');
    this.lesson = new Lesson(core, tutorial);
    this.view = this.module.createView({ board: this.board, side: this.side, panel: this.panel,
      mySeat: () => this.lesson.seat, act: (a) => this.act(a), preview: (a) => this.lesson.preview(a), reducedMotion });
    // Back where this page left the lesson (a language switch or a look at the rules draws the page again).
    const at = this.app.learnAt?.[this.gameId] || 0;
    while (this.lesson.at < at && (this.lesson.taught() ? this.lesson.play(this.lesson.taught()).ok : this.lesson.next()));
    this.show();
    this.el.dataset.ready = 'true';
    this.heading.focus({ preventScroll: this.lesson.at > 0 });
  }

  fail(text) {
    this.text.textContent = t('learn.failed', { error: text });
    this.nextBtn.hidden = true;
    this.backBtn.hidden = true;
    this.el.dataset.ready = 'error';
  }

  // Draws the lesson's step: the board, the coach's words, the buttons; focus where the next thing to do is.
  show(focusNext = false) {
    const L = this.lesson;
    this.state = { ...L.state(), seats: lessonSeats(this.module, L.seat, this.app.identity.name || null) };
    this.view.update(this.state);
    clear(this.words).append(h('ul', this.module.describeBoard(this.state).map((line) => h('li', line))));
    const n = L.steps.length;
    this.progress.textContent = t('learn.progress', { k: L.at + 1, n });
    this.text.textContent = this.t(`coach.${L.step.say}`);
    const over = this.state.status === 'finished';
    this.result.hidden = !over;
    this.result.textContent = over ? this.module.describeResult(this.state).text : '';
    const taught = L.taught();
    this.yourMove.hidden = !taught;
    this.nextBtn.hidden = Boolean(taught) || L.done;
    this.backBtn.hidden = L.at === 0;
    this.ways.hidden = !L.done;
    this.app.learnAt = { ...this.app.learnAt, [this.gameId]: L.at };
    const d = this.el.dataset;
    d.step = String(L.at);
    d.say = L.step.say;
    d.status = this.state.status;
    d.taught = taught ? 'true' : 'false';
    this.place();
    if (!focusNext) return;
    // Keyboard: on to the next thing to press (Next, the board's first choice, or the ways on).
    const target = !this.nextBtn.hidden ? this.nextBtn
      : taught ? this.el.querySelector('.learn-board [data-click], .learn-panel [data-click]') : this.el.querySelector('#learn-play');
    (target || this.heading).focus();
  }

  // On a phone (learn.css's layouts for a phone upright or on its side) the page's head makes way from the
  // second step on: the lesson's part of the page (the coach, the board, the panel) is scrolled to the top of
  // the screen, at once (a finger may be about to tap), so the coach's words, the whole board at its full size
  // and the move's controls share one screen. The first step shows the page from its top (the title, the
  // step count, the way back). A wider screen keeps its scroll.
  place() {
    if (typeof window === 'undefined' || !window.matchMedia(PHONE).matches || !this.el.isConnected) return;
    const top = this.lesson.at === 0 ? -window.scrollY : this.main.getBoundingClientRect().top - 2;
    if (Math.abs(top) >= 1) window.scrollBy({ top, behavior: 'instant' });
  }

  go(dir) {
    if (!this.lesson) return;
    const moved = dir > 0 ? this.lesson.next() : this.lesson.back();
    if (moved) this.show(true);
  }

  restart() {
    while (this.lesson.back());
    this.show(true);
  }

  // The game's view makes a move: the taught one is played, anything else is refused in words.
  act(action) {
    const r = this.lesson.play(action);
    if (!r.ok) {
      this.text.textContent = `${t('learn.notThat')} ${this.t(`coach.${this.lesson.step.say}`)}`;
      return;
    }
    this.app.sent.push(action);
    this.show(true);
  }

  // The browser-test contract, as in the room: the elements to click for `action` in the view shown.
  clicksFor(action) {
    return this.state ? this.module.clicksFor(action, this.state) : null;
  }

  // The game's keys ("r" rolls) click its parts here, as in the room, anywhere but in a text field.
  key(ev) {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(ev.target?.tagName)) return;
    const sc = (this.module.shortcuts || []).find((s) => s.key === ev.key.toLowerCase());
    const el = sc && this.el.querySelector(`[data-click="${CSS.escape(sc.token)}"]`);
    if (el) { ev.preventDefault(); el.click(); }
  }

  destroy() {
    this.el.removeEventListener('keydown', this.onKey);
    if (this.view?.destroy) this.view.destroy();
  }
}
