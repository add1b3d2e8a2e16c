// i18n_plural.test.mjs: t() chooses a plural variant by the count `n` and the language's plural rules
// (clients/web/i18n.js): English, Spanish and Portuguese "1 point" / "2 points", Portuguese 0 in the
// plural, Spanish millions (CLDR "many") falling back to "other", a missing variant falling back to
// "other", both ways of writing a plural (an object, or sibling keys "x.one"/"x.other"), and the
// shell's and the games' real catalogues, every key of which reads as text in every language and count;
// and the clock's tenths with the language's decimal sign.
// Plain Node: i18n.js is loaded with the few browser globals it
// reads stubbed (no page, no server).

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

const SRC = process.env.QUINTETO_SOURCE || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const WEB = path.join(SRC, 'clients/web');

// What i18n.js reads of the browser: the URL's ?lang, localStorage, navigator.languages, <html lang>.
const store = new Map();
globalThis.location = { search: '?lang=en' };
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
Object.defineProperty(globalThis, 'navigator', { value: { languages: ['en'] }, configurable: true });
globalThis.document = { documentElement: { lang: '' } };

const i18n = await import(pathToFileURL(path.join(WEB, 'i18n.js')).href);
const { t, setLang, translator, pluralForm } = i18n;
// i18n.js loads a language's shell catalogue when it is first chosen: load all three, English last.
for (const l of ['es', 'pt', 'en']) await setLang(l);
const game = async (id) => translator((await import(pathToFileURL(path.join(WEB, 'games', id, 'strings.js')).href)).default);

const probe = translator({
  en: { 'apples': { one: '{n} apple', other: '{n} apples' }, 'pears.one': '{n} pear', 'pears.other': '{n} pears', 'only': { other: '{n} things' } },
  es: { 'apples': { one: '{n} manzana', other: '{n} manzanas' }, 'pears.one': '{n} pera', 'pears.other': '{n} peras', 'only': { other: '{n} cosas' } },
  pt: { 'apples': { one: '{n} maçã', other: '{n} maçãs' }, 'pears.one': '{n} pera', 'pears.other': '{n} peras' },
});

test('the plural category by language: one for 1, other for 2; 0 is plural in English, Spanish and Portuguese', () => {
  for (const l of ['en', 'es', 'pt']) {
    assert.equal(pluralForm(1, l), 'one', `${l} 1`);
    assert.equal(pluralForm(2, l), 'other', `${l} 2`);
    assert.equal(pluralForm(0, l), 'other', `${l} 0`);
  }
  assert.equal(pluralForm(1000000, 'es'), 'many', 'CLDR has "many" for Spanish millions');
  assert.equal(pluralForm(undefined, 'en'), 'other', 'no count: other');
});

test('t() picks the variant in each language, both ways of writing a plural', () => {
  const want = {
    en: { 0: ['0 apples', '0 pears'], 1: ['1 apple', '1 pear'], 2: ['2 apples', '2 pears'] },
    es: { 0: ['0 manzanas', '0 peras'], 1: ['1 manzana', '1 pera'], 2: ['2 manzanas', '2 peras'] },
    pt: { 0: ['0 maçãs', '0 peras'], 1: ['1 maçã', '1 pera'], 2: ['2 maçãs', '2 peras'] },
  };
  for (const [l, byN] of Object.entries(want)) {
    setLang(l);
    for (const [n, [apples, pears]] of Object.entries(byN)) {
      assert.equal(probe('apples', { n: Number(n) }), apples, `${l} apples ${n}`);
      assert.equal(probe('pears', { n: Number(n) }), pears, `${l} pears ${n}`);
    }
  }
  setLang('es');
  assert.equal(probe('apples', { n: 1000000 }), '1.000.000 manzanas', 'Spanish "many" falls back to other');
  assert.equal(probe('only', { n: 1 }), '1 cosas', 'a missing variant falls back to other');
  setLang('pt');
  assert.equal(probe('only', { n: 1 }), '1 things', 'a key missing in pt falls back to English (whose entry has only other)');
  assert.ok(probe.has('pears'), 'has() knows a plural written as sibling keys');
});

test('the shell and the games count right: no "1 points", "1 moves", "1 spectators"', async () => {
  const ur = await game('ur');
  const laquet = await game('laquet');
  const s15 = await game('super15');
  const cases = [
    // [translator, key, vars, en 1, en 2, es 1, es 2, pt 1, pt 2]
    [t, 'room.spectators', {}, '1 spectator', '2 spectators', '1 espectador', '2 espectadores', '1 espectador', '2 espectadores'],
    [t, 'archive.plies', {}, '1 move', '2 moves', '1 jugada', '2 jugadas', '1 jogada', '2 jogadas'],
    [t, 'eye.costlyMark', { role: 'X' }, 'X lost 1 point here', 'X lost 2 points here', 'X perdió 1 punto aquí', 'X perdió 2 puntos aquí', 'X perdeu 1 ponto aqui', 'X perdeu 2 pontos aqui'],
    [s15, 'points', { role: 'X' }, 'X: 1 point on the board', 'X: 2 points on the board', 'X: 1 punto en el tablero', 'X: 2 puntos en el tablero', 'X: 1 ponto no tabuleiro', 'X: 2 pontos no tabuleiro'],
    [s15, 'words.quiet', {}, '1 move since the last capture.', '2 moves since the last capture.', '1 jugada desde la última captura.', '2 jugadas desde la última captura.', '1 jogada desde a última captura.', '2 jogadas desde a última captura.'],
    [ur, 'n.borne', {}, '1 piece off', '2 pieces off', '1 ficha fuera', '2 fichas fuera', '1 peça fora', '2 peças fora'],
    [laquet, 'n.handed', {}, '1 die handed over', '2 dice handed over', 'ceden 1 dado', 'ceden 2 dados', 'cedem 1 dado', 'cedem 2 dados'],
  ];
  for (const [f, key, vars, ...want] of cases) {
    const got = [];
    for (const l of ['en', 'es', 'pt']) {
      setLang(l);
      got.push(f(key, { ...vars, n: 1 }), f(key, { ...vars, n: 2 }));
    }
    assert.deepEqual(got, want, key);
  }
  setLang('pt');
  assert.equal(s15('points', { role: 'X', n: 0 }), 'X: 0 pontos no tabuleiro', 'Portuguese says zero in the plural');
  setLang('en');
});

test('every key of every catalogue reads as text in every language and count: no raw key, no {placeholder} left', async () => {
  const shell = { en: (await import(pathToFileURL(path.join(WEB, 'i18n/en.js')).href)).default };
  const dirs = (await readdir(path.join(WEB, 'games'), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const cats = [['shell', t, shell.en]];
  // the views' own catalogues (i18n/<name>.js, {en, es, pt}: the archive's, the accounts', the rules and learn pages', the room's)
  for (const name of ['replay', 'accounts', 'learn', 'room']) {
    const strings = (await import(pathToFileURL(path.join(WEB, 'i18n', `${name}.js`)).href)).default;
    cats.push([name, translator(strings), strings.en]);
  }
  for (const id of dirs) {
    const strings = (await import(pathToFileURL(path.join(WEB, 'games', id, 'strings.js')).href)).default;
    cats.push([id, translator(strings), strings.en]);
  }
  const problems = [];
  for (const l of ['en', 'es', 'pt']) {
    setLang(l);
    for (const [name, f, en] of cats) {
      // a plural written as sibling keys is asked for by its base key
      const keys = new Set(Object.keys(en).map((k) => /\{n\}/.test(JSON.stringify(en[k])) ? k.replace(/\.(one|other)$/, '') : k));
      for (const key of keys) {
        for (const n of [0, 1, 2, 1000000]) {
          // the variables English fills (any language asking for another one shows it raw)
          const names = [...JSON.stringify(en[key] ?? en[`${key}.other`]).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          const vars = Object.fromEntries(names.map((k) => [k, `<${k}>`]));
          vars.n = n;
          const text = f(key, vars);
          if ((text === key && en[key] !== key) || typeof text !== 'string' || /\{\w+\}/.test(text)) problems.push(`${name} ${l} "${key}" n=${n}: ${text}`);
        }
      }
    }
  }
  setLang('en');
  assert.deepEqual(problems, []);
});

test('the clock\'s tenths take the language\'s decimal sign ("9,5" is read "nueve coma cinco")', async () => {
  const { fmtClock } = await import(pathToFileURL(path.join(WEB, 'clock.js')).href);
  const got = {};
  for (const l of ['en', 'es', 'pt']) {
    setLang(l);
    got[l] = [fmtClock(9500), fmtClock(83000)];
  }
  setLang('en');
  assert.deepEqual(got, { en: ['9.5', '1:23'], es: ['9,5', '1:23'], pt: ['9,5', '1:23'] });
});
