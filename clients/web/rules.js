// rules.js: a game's rules page (route #/rules/<game>, readable without a name), in the current language,
// with the game's legend, a link that opens the lobby with the game chosen (#/?game=<id>) and, for a game with
// a guided match, one to it (#/learn/<id>). The text is the module's `rules` (games/base.js), in a light markup
// drawn here as DOM (never as HTML): "# " a title, "## " a section, "- " a list item (indented lines continue
// it; an indented "- " is an item of a list inside it), "| a | b |" a table row (the first row is the header, a
// "| --- |" row is skipped), **bold**, blank lines between paragraphs, and a line "{example}": where the board
// of the worked turn is drawn.
//
// The worked turn: `rules.example` ({seat, moves: [{seat, action, dice?}]}) is played from the start by the
// rules module (the server's own C in WebAssembly; lesson.js, loaded then, plays it as the guided match does:
// a throw gets the dice it names), and the position it leaves, its last move marked, is drawn by the game's own view,
// inert (nothing on it can be pressed); the text beside it walks through that turn in words.

import { h, clear } from './dom.js';
import { currentLang, translator } from './i18n.js';
import strings from './i18n/learn.js';
import { gameModule, gameLabel } from './games/registry.js';
import { loadCss } from './games/common.js';
import { legendList } from './room.js';
import { rulesModule } from './preview.js';

// This view's words (i18n/learn.js, loaded with it), then the shell's.
const t = translator(strings);

function inline(text) {
  return text.split(/(\*\*[^*]+\*\*)/).filter(Boolean)
    .map((p) => (p.startsWith('**') && p.endsWith('**') ? h('strong', p.slice(2, -2)) : p));
}

function cells(line) {
  return line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
}

// The light markup as a list of DOM elements.
export function renderRules(text) {
  const out = [];
  let list = null;
  let sub = null; // the list inside the current item, if it has one
  let table = null;
  let para = [];
  const flush = () => {
    if (para.length) out.push(h('p', inline(para.join(' '))));
    para = [];
    list = null;
    sub = null;
    table = null;
  };
  for (const raw of String(text).split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) { flush(); continue; }
    if (list && /^\s+- /.test(line)) {
      if (!sub) { sub = h('ul'); list.lastChild.append(sub); }
      sub.append(h('li', inline(line.trim().slice(2))));
      continue;
    }
    if (list && /^\s/.test(line)) { (sub || list).lastChild.append(' ', ...inline(line.trim())); continue; }
    if (line.trim() === '{example}') { flush(); out.push(h('div.rules-example-slot')); continue; }
    if (line.startsWith('# ')) { flush(); out.push(h('h1.page-title', inline(line.slice(2)))); continue; }
    if (line.startsWith('## ')) { flush(); out.push(h('h2', inline(line.slice(3)))); continue; }
    if (line.startsWith('- ')) {
      if (para.length || table) flush();
      if (!list) { list = h('ul'); out.push(list); }
      sub = null;
      list.append(h('li', inline(line.slice(2))));
      continue;
    }
    if (line.startsWith('|')) {
      if (para.length || list) flush();
      if (/^\|[\s|:-]+\|$/.test(line)) continue;
      if (!table) {
        table = h('table', h('thead', h('tr', cells(line).map((c) => h('th', { scope: 'col' }, inline(c))))), h('tbody'));
        out.push(h('div.table-wrap', table));
      } else {
        table.tBodies[0].append(h('tr', cells(line).map((c) => h('td', inline(c)))));
      }
      continue;
    }
    para.push(line.trim());
  }
  flush();
  return out;
}

export class RulesView {
  constructor(app, game) {
    this.app = app;
    loadCss(new URL('./rules.css', import.meta.url)); // on the first rules page, not with the first page load
    const m = gameModule(game);
    const back = h('a.back', {
      href: '#/',
      onclick: (ev) => { if (history.length > 1) { ev.preventDefault(); history.back(); } },
    }, t('rules.back'));
    if (!m) {
      this.el = h('section.rules.card', h('h1.page-title', t('rules.unknown', { game })), back);
      return;
    }
    const text = m.rules[currentLang()] || m.rules.en;
    const play = h('a#rules-play.rules-play', { href: `#/?game=${encodeURIComponent(game)}` }, t('rules.play', { game: gameLabel(game) }));
    const learn = typeof m.tutorial === 'function'
      ? h('a#rules-learn.rules-play', { href: `#/learn/${encodeURIComponent(game)}` }, t('rules.learn', { game: gameLabel(game) })) : null;
    this.el = h('article.rules.card', { lang: currentLang(), 'data-game': game },
      h('div.rules-top', back, learn),
      ...renderRules(text),
      h('h2', t('room.legend')),
      legendList(m),
      h('p.keys', t('room.keys')),
      h('p.rules-ways', play, learn ? learn.cloneNode(true) : null));
    this.el.querySelector('.rules-ways #rules-learn')?.removeAttribute('id');
    const slot = this.el.querySelector('.rules-example-slot');
    if (slot && m.rules.example) this.ready = this.drawExample(m, slot);
    else slot?.remove();
  }

  // The worked turn's board in `slot`: the position the example's moves leave, drawn by the game's view, inert.
  async drawExample(m, slot) {
    const board = h('div.game-board.rules-example-board');
    const panel = h('div.game-panel');
    const words = h('ul.board-words');
    const fig = h('figure#rules-example.rules-example', { 'data-ready': 'false' },
      h('div.rules-example-view', { inert: true }, board, panel),
      h('figcaption', t('rules.example')),
      h('details.words', h('summary', t('room.words')), words));
    slot.replaceWith(fig);
    try {
      const [core, { Lesson, lessonSeats }] = await Promise.all([rulesModule(), import('./lesson.js')]);
      if (!core) throw new Error('no rules module');
      const ex = m.rules.example;
      const lesson = new Lesson(core, { game: m.id, seat: ex.seat ?? 0, steps: [{ say: 'example', act: ex.moves }] });
      const state = { ...lesson.state(), seats: lessonSeats(m, null) };
      this.view = m.createView({ board, panel, side: h('div'), mySeat: () => null, act: () => {}, preview: () => null,
        reducedMotion: () => true });
      this.view.update(state);
      words.append(...m.describeBoard(state).map((line) => h('li', line)));
      fig.dataset.ready = 'true';
    } catch (e) {
      clear(board).append(h('p.notice', t('rules.exampleFailed')));
      fig.dataset.ready = 'error';
      console.warn(`the worked turn of ${m.id} could not be drawn: ${e.message}`);
    }
  }

  destroy() {
    if (this.view?.destroy) this.view.destroy();
  }
}
