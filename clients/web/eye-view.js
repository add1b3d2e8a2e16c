// eye-view.js: the bot's eye under the replay's board (archive.js): the strong bot's estimate of each seat's
// chance to win at every weighed position (eye.js, computed by the replay's Web Worker: nothing is asked of the
// server), drawn as an SVG graph (one line per seat in the seat's colour, the step shown marked, the costly
// moves marked), a text summary of the chances at the step shown, the move the bot would play there in the
// game's own words (its module's describeAction, as the replay's moves are written), and the costly moves:
// those that lost at least 15 points of the mover's chance against the bot's choice, marked in the graph and
// in the move list (archive.js asks costAt()). The graph is a picture (role img) whose words are the summary;
// clicking it goes to the nearest step.

import { h, s as svgEl, clear } from './dom.js';
import { translator } from './i18n.js';
import strings from './i18n/replay.js';

// This view's words (i18n/replay.js, loaded with it), then the shell's.
const t = translator(strings);

// svgEl with h()'s 'name#id.class' tags (its classes joined with attrs.class).
function svg(tag, attrs = {}, ...children) {
  const [head, ...classes] = tag.split('.');
  const [name, id] = head.split('#');
  const cls = [...classes, ...(attrs.class ? [attrs.class] : [])].join(' ');
  return svgEl(name, { ...attrs, id, class: cls || undefined }, ...children);
}

const W = 600;
const H = 140;
const PAD = 4;

const pct = (x) => Math.round(x * 100);

export class EyePanel {
  // opts: { seats: n, role(seat), go(step), total }
  constructor({ seats, role, go, total }) {
    this.seats = seats;
    this.role = role;
    this.go = go;
    this.total = Math.max(1, total);
    this.points = new Map(); // step -> point (eye.js weigh)
    this.costly = new Map(); // step -> loss
    this.sorted = null;      // the weighed steps in order (rebuilt after new points)
    this.step = 0;
    this.state = null;
    this.module = null;
    this.status = h('p#eye-status.eye-status', { 'aria-live': 'polite' }, t('eye.starting'));
    this.summaryEl = h('p#eye-summary.eye-summary');
    this.graph = svg('svg#eye-graph.eye-graph', { viewBox: `0 0 ${W} ${H}`, role: 'img',
      'aria-labelledby': 'eye-summary' });
    this.graph.addEventListener('click', (ev) => this.click(ev));
    this.moveEl = h('p#eye-move.eye-move');
    this.costEl = h('p#eye-cost.eye-cost', { hidden: true });
    this.el = h('section#bot-eye.card.bot-eye', { 'aria-labelledby': 'eye-title' },
      h('h2#eye-title', t('eye.title')), this.status, h('div.eye-graph-wrap', this.graph), this.summaryEl,
      this.moveEl, this.costEl);
    this.el.dataset.state = 'pending';
  }

  // The worker's 'eye' answer: the level weighing, and how many positions (0: none: the game has no strong bot).
  started({ level, steps }) {
    if (!level || !steps) {
      this.status.textContent = t('eye.none');
      this.el.dataset.state = 'none';
      this.graph.hidden = true;
      return;
    }
    this.expect = steps;
    this.status.textContent = t('eye.weighing', { done: 0, total: steps });
    this.el.dataset.state = 'weighing';
  }

  failed(message) {
    this.status.textContent = t('eye.failed', { error: message });
    this.el.dataset.state = 'error';
  }

  // A slice of weighed positions and every costly move found so far.
  add({ points, costly, done, total }) {
    for (const p of points) this.points.set(p.step, p);
    this.costly = new Map(costly);
    this.sorted = null;
    const finished = done >= total;
    this.status.textContent = finished ? t('eye.done', { n: total, costly: this.costly.size })
      : t('eye.weighing', { done, total });
    this.el.dataset.state = finished ? 'done' : 'weighing';
    this.el.dataset.points = String(this.points.size);
    this.draw();
    this.describe();
  }

  // The loss of the move at step j (0..1) when it was a costly one, else undefined.
  costAt(j) { return this.costly.get(j); }

  // The step shown (its state as the board draws it) and the game's module, for the words.
  show(step, state, module) {
    this.step = step;
    this.state = state;
    this.module = module;
    this.drawCursor();
    this.describe();
  }

  steps() {
    if (!this.sorted) this.sorted = [...this.points.keys()].sort((a, b) => a - b);
    return this.sorted;
  }

  x(step) { return PAD + ((W - 2 * PAD) * step) / Math.max(1, this.total - 1); }

  y(p) { return PAD + (H - 2 * PAD) * (1 - p); }

  draw() {
    const g = clear(this.graph);
    g.append(svg('line.eye-mid', { x1: 0, x2: W, y1: this.y(0.5), y2: this.y(0.5) }));
    const steps = this.steps().filter((s) => this.points.get(s).est);
    for (let seat = 0; seat < this.seats; seat++) {
      const pts = steps.map((s) => `${this.x(s).toFixed(1)},${this.y(this.points.get(s).est[seat]).toFixed(1)}`);
      if (pts.length) g.append(svg('polyline.eye-line', { class: `seat-c${seat}`, points: pts.join(' '), 'data-seat': seat }));
    }
    for (const [j, loss] of this.costly) {
      const before = this.points.get(j - 1);
      const after = this.points.get(j);
      g.append(svg('circle.eye-costly', { class: `seat-c${before.seat}`, cx: this.x(j), cy: this.y(after.est[before.seat]),
        r: 4, 'data-step': j }, svg('title', t('eye.costlyMark', { role: this.role(before.seat), n: pct(loss) }))));
    }
    this.cursor = svg('line.eye-cursor', { y1: 0, y2: H });
    g.append(this.cursor);
    this.drawCursor();
  }

  drawCursor() {
    if (!this.cursor) return;
    this.cursor.setAttribute('x1', this.x(this.step));
    this.cursor.setAttribute('x2', this.x(this.step));
  }

  // The weighed point at or before the step shown (the position there, or the latest one weighed before it).
  pointAt(step) {
    let best = null;
    for (const s of this.steps()) {
      if (s > step) break;
      best = this.points.get(s);
    }
    return best;
  }

  describe() {
    if (!this.state) return;
    const exact = this.points.get(this.step);
    const p = exact || this.pointAt(this.step);
    if (!p || !p.est) {
      this.summaryEl.textContent = this.points.size ? t('eye.notWeighed') : '';
    } else {
      const chances = p.est.map((e, s) => t('eye.chance', { role: this.role(s), pct: pct(e) })).join(', ');
      this.summaryEl.textContent = t(exact ? 'eye.summary' : 'eye.summaryBefore', { ply: p.ply, chances });
    }
    this.summaryEl.dataset.step = p ? String(p.step) : '';
    if (exact && exact.choice !== null && this.module) {
      const move = this.module.describeAction(exact.choice, this.state);
      this.moveEl.textContent = exact.n > 1 ? t('eye.wouldPlay', { move }) : t('eye.onlyMove', { move });
      this.moveEl.dataset.move = JSON.stringify(exact.choice);
    } else {
      this.moveEl.textContent = exact ? t('eye.noChoice') : '';
      delete this.moveEl.dataset.move;
    }
    const loss = this.costly.get(this.step);
    this.costEl.hidden = loss === undefined;
    if (loss !== undefined) {
      const before = this.points.get(this.step - 1);
      this.costEl.textContent = t('eye.costly', { role: this.role(before.seat), n: pct(loss) });
    }
  }

  click(ev) {
    const r = this.graph.getBoundingClientRect();
    if (!r.width) return;
    const want = ((ev.clientX - r.left) / r.width) * W;
    let best = null;
    for (const s of this.steps()) if (best === null || Math.abs(this.x(s) - want) < Math.abs(this.x(best) - want)) best = s;
    if (best !== null) this.go(best);
  }
}
