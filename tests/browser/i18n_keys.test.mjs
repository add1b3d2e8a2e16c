// i18n_keys.test.mjs: the web client's catalogues are complete in every language. The shell's
// (clients/web/i18n/<lang>.js; the lazily loaded views' clients/web/i18n/{replay,accounts,learn,room}.js)
// and each game's (clients/web/games/<id>/strings.js) must have the
// same keys in es, pt and en, with the same {placeholders} and plural forms; every key the source
// asks for by name (t('...')) must exist; every protocol error code has a sentence; each game has
// its rules page in the three languages and the keys the shell needs from it (label, role.<role>).
// Plain Node: the catalogues are data modules with no DOM.

import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SRC = process.env.QUINTETO_SOURCE || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const WEB = path.join(SRC, 'clients/web');
const LANGS = ['en', 'es', 'pt'];

async function load(file) {
  return (await import(pathToFileURL(file).href)).default;
}

function placeholders(v) {
  const texts = typeof v === 'string' ? [v] : Object.values(v);
  return [...new Set(texts.flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort().join(',');
}

// CLDR's plural categories (Intl.PluralRules); a key ending in one of them is a plural variant.
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];
const VARIANT = new RegExp(`^(.+)\\.(${CATEGORIES.join('|')})$`);

// A catalogue (one language) with its plurals gathered: sibling keys "x.one", "x.other" become
// x: {one, other}, as the object form already is (clients/web/i18n.js reads both). Such a group is a
// plural when "x.other" counts {n} and every key under "x." is a category (so "turn.other", "{role}
// to play" beside "turn.yours", stays a key of its own).
function gather(cat) {
  const out = {};
  const plural = (base) => typeof cat[`${base}.other`] === 'string' && /\{n\}/.test(cat[`${base}.other`]) &&
    Object.keys(cat).every((k) => !k.startsWith(`${base}.`) || VARIANT.exec(k)?.[1] === base);
  for (const [key, v] of Object.entries(cat || {})) {
    const m = VARIANT.exec(key);
    if (m && typeof v === 'string' && plural(m[1])) out[m[1]] = { ...(typeof out[m[1]] === 'object' ? out[m[1]] : {}), [m[2]]: v };
    else out[key] = v;
  }
  return out;
}

// The plural problems of text `v` (a plural object) in language `l`: `other` always; `one` where the
// language has it (every language here: en, es, pt); no category the language does not use; every
// variant the same placeholders besides {n}, and {n} (the count that chooses) in "other".
function pluralProblems(name, key, l, v) {
  const problems = [];
  const has = new Intl.PluralRules(l).resolvedOptions().pluralCategories;
  if (typeof v.other !== 'string') problems.push(`${name}: "${key}" in ${l} has no "other" form`);
  if (has.includes('one') && typeof v.one !== 'string') problems.push(`${name}: "${key}" in ${l} has no "one" form`);
  for (const [form, text] of Object.entries(v)) {
    if (!has.includes(form)) problems.push(`${name}: "${key}" in ${l} has the form "${form}", which ${l} does not use`);
    else if (typeof text !== 'string' || !text.trim()) problems.push(`${name}: "${key}" in ${l}, form "${form}", is not text`);
  }
  // "one" may spell its count out ("a stone"), so {n} is left out of the comparison between forms
  const forms = Object.values(v).filter((x) => typeof x === 'string').map((x) => placeholders(x).split(',').filter((p) => p && p !== 'n').join(','));
  if (new Set(forms).size > 1) problems.push(`${name}: "${key}" in ${l} has forms with different placeholders`);
  if (typeof v.other === 'string' && !/\{n\}/.test(v.other)) problems.push(`${name}: "${key}" in ${l} is plural but its "other" does not count {n}`);
  return problems;
}

// Compares catalogues {en, es, pt}: every key everywhere, same placeholders, plurals complete.
function compare(name, raw) {
  const problems = [];
  const cats = Object.fromEntries(LANGS.map((l) => [l, gather(raw[l])]));
  const all = new Set(LANGS.flatMap((l) => Object.keys(cats[l] || {})));
  for (const key of all) {
    for (const l of LANGS) {
      const v = cats[l]?.[key];
      if (v === undefined) { problems.push(`${name}: "${key}" missing in ${l}`); continue; }
      if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) { problems.push(`${name}: "${key}" in ${l} is not text`); continue; }
      if (typeof v === 'object') problems.push(...pluralProblems(name, key, l, v));
      else if (!v.trim()) problems.push(`${name}: "${key}" in ${l} is empty`);
      if (cats.en[key] !== undefined && placeholders(v) !== placeholders(cats.en[key])) {
        problems.push(`${name}: "${key}" in ${l} has placeholders {${placeholders(v)}}, English {${placeholders(cats.en[key])}}`);
      }
    }
  }
  return problems;
}

// English texts that count with a bare number ("{n} points", "{pts} points") must be plurals, or
// "1 points" shows.
function countsWithoutPlural(name, raw) {
  const en = gather(raw.en);
  return Object.entries(en).filter(([, v]) => typeof v === 'string' && /\{(?:n|pts|points|count)\} (?:[a-z]+s|men|dice)\b/.test(v))
    .map(([key, v]) => `${name}: "${key}" counts things but is not a plural: "${v}"`);
}

// Keys asked for by name in the given files: t('key' and t("key".
async function keysUsed(files) {
  const out = new Map();
  for (const f of files) {
    const text = await readFile(f, 'utf8');
    for (const m of text.matchAll(/(?<![\w.])t\((['"])([\w.]+)\1/g)) out.set(m[2], path.relative(SRC, f));
  }
  return out;
}

// Calls of a plural key that do not pass its count as `n` (t('points', { pts }) would always say
// "other"): the call's text up to its closing parenthesis must name n. [`file: key`]
async function pluralsWithoutCount(files, plural) {
  const out = [];
  for (const f of files) {
    const text = await readFile(f, 'utf8');
    for (const m of text.matchAll(/(?<![\w.])t\((['"])([\w.]+)\1/g)) {
      if (!plural(m[2])) continue;
      let depth = 1;
      let i = m.index + m[0].length;
      for (; i < text.length && depth; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
      const args = text.slice(m.index + m[0].length, i - 1);
      if (!/[{,]\s*n\s*[:,}]/.test(args)) out.push(`${path.relative(SRC, f)}: t('${m[2]}'${args}) does not pass the count as n`);
    }
  }
  return out;
}

async function jsFiles(dir) {
  return (await readdir(dir)).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));
}

async function gameDirs() {
  const entries = await readdir(path.join(WEB, 'games'), { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

test('the shell catalogue has every key in es, pt and en', async () => {
  const cats = Object.fromEntries(await Promise.all(LANGS.map(async (l) => [l, await load(path.join(WEB, 'i18n', `${l}.js`))])));
  const problems = [...compare('shell', cats), ...countsWithoutPlural('shell', cats)];
  const en = gather(cats.en);
  // The lazily loaded views' own catalogues (i18n/<name>.js, {en, es, pt}, loaded with them, not with the
  // lobby): the same checks; a key those views ask for may be in theirs or in the shell's (their translator
  // reads both), a key any other file asks for must be in the shell's.
  const VIEWS = { replay: ['archive.js', 'analysis.js', 'eye-view.js'], accounts: ['account.js', 'players.js'],
    learn: ['learn.js', 'rules.js'], room: ['room.js'] };
  const files = await jsFiles(WEB);
  const viewEn = {};
  for (const [name, users] of Object.entries(VIEWS)) {
    const cat = await load(path.join(WEB, 'i18n', `${name}.js`));
    problems.push(...compare(name, cat), ...countsWithoutPlural(name, cat));
    viewEn[name] = gather(cat.en);
    for (const [key, file] of await keysUsed(files.filter((f) => users.includes(path.basename(f))))) {
      if (!(key in en) && !(key in viewEn[name])) problems.push(`${name}: "${key}" used in ${file} is in no catalogue`);
    }
  }
  const plural = (k) => [en, ...Object.values(viewEn)].some((c) => typeof c[k] === 'object');
  problems.push(...await pluralsWithoutCount(files, plural));
  const viewFiles = Object.values(VIEWS).flat();
  for (const [key, file] of await keysUsed(files.filter((f) => !viewFiles.includes(path.basename(f))))) {
    if (!(key in en)) problems.push(`shell: "${key}" used in ${file} is in no catalogue`);
  }
  // The keys built at run time: connection states, room states, languages, log kinds, error codes.
  const schema = JSON.parse(await readFile(path.join(SRC, 'protocol/schema/error.json'), 'utf8'));
  const dynamic = [
    ...['online', 'connecting', 'reconnecting', 'closed'].map((k) => `conn.${k}`),
    ...['waiting', 'playing', 'finished'].map((k) => `status.${k}`),
    ...LANGS.map((k) => `lang.${k}`),
    ...['sat', 'satBot', 'freed', 'disconnected', 'back'].map((k) => `log.${k}`),
    ...schema.properties.code.enum.map((c) => `error.${c}`),
    'error.timeout', 'error.disconnected', 'error.bad_name',
    ...['random', 'greedy', 'strong'].map((l) => `botName.${l}`), // levels.js botName()
  ];
  // The codes only the account requests get (PROTOCOL.md, "Accounts and ratings") are said by their forms,
  // account.js's account.error.<code> (i18n/accounts.js), never by the shell's toast.
  const accountOnly = ['bad_handle', 'handle_taken', 'bad_password', 'wrong_credentials', 'already_claimed',
    'not_signed_in', 'unknown_session', 'signups_disabled', 'seats_held', 'busy'].map((c) => `error.${c}`);
  for (const key of dynamic) {
    if (key in en || (accountOnly.includes(key) && `account.${key}` in viewEn.accounts)) continue;
    problems.push(`shell: "${key}" (built at run time) is in no catalogue`);
  }
  assert.deepEqual(problems, []);
});

test('every game module brings its strings and rules page in es, pt and en', async () => {
  const shell = gather(await load(path.join(WEB, 'i18n', 'en.js')));
  const games = await gameDirs();
  assert.ok(games.includes('ur'), 'the worked example is there');
  const problems = [];
  for (const id of games) {
    const dir = path.join(WEB, 'games', id);
    const strings = await load(path.join(dir, 'strings.js'));
    const rules = await load(path.join(dir, 'rules.js'));
    problems.push(...compare(id, strings));
    problems.push(...countsWithoutPlural(id, strings));
    if (!strings.en || !('label' in strings.en)) problems.push(`${id}: no "label"`);
    for (const l of LANGS) {
      if (typeof rules[l] !== 'string' || !/^# /m.test(rules[l]) || rules[l].length < 400) {
        problems.push(`${id}: no rules page in ${l}`);
      }
    }
    const gameEn = gather(strings.en);
    problems.push(...await pluralsWithoutCount(await jsFiles(dir), (k) => typeof (gameEn[k] ?? shell[k]) === 'object'));
    const used = await keysUsed(await jsFiles(dir));
    for (const [key, file] of used) {
      if (!(key in gather(strings.en)) && !(key in shell)) problems.push(`${id}: "${key}" used in ${file} is in no catalogue`);
    }
    // The roles: every role the module's board names must have its word.
    const src = await readFile(path.join(dir, `${id}.js`), 'utf8');
    if (!/roles:/.test(src)) problems.push(`${id}: the module names no roles`);
    for (const key of Object.keys(strings.en || {}).filter((k) => k.startsWith('role.'))) {
      for (const l of LANGS) if (!strings[l]?.[key]) problems.push(`${id}: ${key} missing in ${l}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the check itself notices a missing key, a wrong placeholder and a broken plural', () => {
  const problems = compare('probe', { en: { a: 'x {n}', b: 'y' }, es: { a: 'x {m}' }, pt: { a: 'x {n}', b: 'y' } });
  assert.deepEqual(problems, ['probe: "a" in es has placeholders {m}, English {n}', 'probe: "b" missing in es']);
  // Plurals, as objects or sibling keys: "other" and "one" needed, no category the language lacks,
  // and a count written as plain text ("1 points") noticed; "turn.other" beside "turn.yours" is no plural.
  const plurals = compare('probe', {
    en: { p: { one: '{n} point', other: '{n} points' }, 'q.one': '{n} move', 'q.other': '{n} moves', 'turn.other': '{role} to play', 'turn.yours': 'You' },
    es: { p: { one: '{n} punto', few: '{n} puntos' }, 'q.other': '{n} jugadas', 'turn.other': 'Juegan {role}', 'turn.yours': 'Tú' },
    pt: { p: { one: '{n} ponto', other: '{n} pontos' }, 'q.one': '{n} jogada', 'q.other': '{n} jogadas', 'turn.other': 'Vez das {role}', 'turn.yours': 'Você' },
  });
  assert.deepEqual(plurals, ['probe: "p" in es has no "other" form', 'probe: "p" in es has the form "few", which es does not use',
    'probe: "q" in es has no "one" form']);
  assert.deepEqual(countsWithoutPlural('probe', { en: { a: '{role}: {n} points', b: '{n} of them' } }), ['probe: "a" counts things but is not a plural: "{role}: {n} points"']);
});
