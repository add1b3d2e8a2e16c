// rules.js: a game's rules page (route #/rules/<game>), in the current language, with the game's
// legend. The text is the module's `rules` (games/base.js), in a light markup drawn here as DOM
// (never as HTML): "# " a title, "## " a section, "- " a list item (indented lines continue it),
// "| a | b |" a table row (the first row is the header, a "| --- |" row is skipped), **bold**, and
// blank lines between paragraphs.

import { h } from './dom.js';
import { currentLang, t } from './i18n.js';
import { gameModule, gameLabel } from './games/registry.js';
import { legendList } from './room.js';

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
  let table = null;
  let para = [];
  const flush = () => {
    if (para.length) out.push(h('p', inline(para.join(' '))));
    para = [];
    list = null;
    table = null;
  };
  for (const raw of String(text).split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) { flush(); continue; }
    if (list && /^\s/.test(line)) { list.lastChild.append(' ', ...inline(line.trim())); continue; }
    if (line.startsWith('# ')) { flush(); out.push(h('h1.page-title', inline(line.slice(2)))); continue; }
    if (line.startsWith('## ')) { flush(); out.push(h('h2', inline(line.slice(3)))); continue; }
    if (line.startsWith('- ')) {
      if (para.length || table) flush();
      if (!list) { list = h('ul'); out.push(list); }
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
    this.el = h('article.rules.card', { lang: currentLang(), 'data-game': game },
      back,
      ...renderRules(text),
      h('h2', t('room.legend')),
      legendList(m),
      h('p.keys', t('room.keys')),
      h('p', h('a', { href: '#/' }, t('rules.play', { game: gameLabel(game) }))));
  }
}
