// i18n.js: the language layer of the web client. Spanish, Portuguese and English; the language comes
// from the browser (navigator.languages) unless the person chose one, which is kept in localStorage.
//
// Strings live in catalogues, one per language: i18n/<lang>.js for the shell, and one object per
// language that each game module brings (`strings` in its module, see games/base.js), as do the views
// loaded later (i18n/{room,replay,learn,accounts}.js: their words stay out of the lobby's first load). A catalogue
// maps a key to a text with {placeholders}. English is complete by construction: a key missing in
// English is a bug, and a test (tests/browser/i18n_keys.test.mjs) fails if any language lacks a key
// another one has.
//
// Plurals: a text that counts things ("1 point", "2 points") takes its count as the variable `n` and
// has one variant per plural category of the language (Intl.PluralRules: English, Spanish and
// Portuguese need `one` and `other`), written either as an object or as sibling keys:
//     'room.spectators': { one: '{n} spectator', other: '{n} spectators' }
//     'room.spectators.one': '{n} spectator',  'room.spectators.other': '{n} spectators'
// t('room.spectators', { n }) picks the variant; a category the catalogue lacks (Spanish `many`, for
// millions) falls back to `other`. One exception to the CLDR rule: Portuguese `one` covers 0 and 1,
// but Brazilian usage (and its grammars) count zero in the plural ("0 peças", "zero pontos"), so 0 is
// `other` in Portuguese. The catalogue test checks that every plural has `other` and the categories
// its language needs; tests/browser/i18n_plural.test.mjs checks the choice in each language.
//
// Nothing here touches the page except setLang(), which sets <html lang> and tells listeners
// (the "langchange" event on `i18n`), so the views can draw themselves again.

export const LANGS = ['es', 'pt', 'en'];
// Only the current language's shell catalogue is loaded (below; setLang() loads another before it
// switches): a first visit fetches one of the three. English, the fallback for a key a catalogue
// lacks (a bug tests/browser/i18n_keys.test.mjs catches), comes only when such a key is met.
const CATALOGUES = { en: () => import('./i18n/en.js'), es: () => import('./i18n/es.js'), pt: () => import('./i18n/pt.js') };
export const SHELL = {};
async function loadCatalogue(l) {
  if (!SHELL[l]) SHELL[l] = (await CATALOGUES[l]()).default;
}
const KEY = 'quinteto.lang';

export const i18n = new EventTarget();
let lang = pickLang();

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

// The first of the browser's languages we speak (es-AR is es, pt-BR is pt), English otherwise.
function pickLang() {
  const fromUrl = new URLSearchParams(location.search).get('lang');
  for (const l of [fromUrl, stored(), ...(navigator.languages || [navigator.language])]) {
    const base = String(l || '').toLowerCase().split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return 'en';
}

export function currentLang() { return lang; }

// Switches the language, remembers the choice, sets <html lang> and fires "langchange": at once when
// its catalogue is here, else once it is (the promise resolves then; a later choice wins).
let wanted = null;
export function setLang(l) {
  if (!LANGS.includes(l)) return Promise.resolve();
  try { localStorage.setItem(KEY, l); } catch { /* private mode */ }
  wanted = l;
  if (SHELL[l]) {
    use(l);
    return Promise.resolve();
  }
  return loadCatalogue(l).then(() => { if (wanted === l) use(l); });
}

function use(l) {
  if (l === lang) return;
  lang = l;
  document.documentElement.lang = l;
  i18n.dispatchEvent(new Event('langchange'));
}

// Fills {name} placeholders from vars; numbers are formatted for the language.
function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (m, k) => {
    if (!vars || !(k in vars)) return m;
    const v = vars[k];
    return typeof v === 'number' ? fmtNumber(v) : String(v);
  });
}

// The plural category of count `n` in language `l` (see the header: 0 is plural in Portuguese).
export function pluralForm(n, l = lang) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return 'other';
  if (l === 'pt' && n === 0) return 'other';
  try { return new Intl.PluralRules(l).select(n); } catch { return 'other'; }
}

// The text for `key` in catalogue `c` (one language's) for `vars`: a plain text, an object of plural
// variants, or sibling keys `key.<category>`; undefined when the catalogue has none of them.
function entry(c, l, key, vars) {
  if (!c) return undefined;
  const v = c[key];
  const n = vars ? vars.n : undefined;
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') return v[pluralForm(n, l)] ?? v.other;
  if (typeof c[`${key}.other`] === 'string') return c[`${key}.${pluralForm(n, l)}`] ?? c[`${key}.other`];
  return undefined;
}

// The text of `key` in `cats` (a list of {en, es, pt} catalogues, searched in order), in the
// current language, falling back to English, then to the key itself (visible, so a test sees it).
export function lookup(cats, key, vars) {
  for (const l of [lang, 'en']) {
    for (const c of cats) {
      const v = entry(c && c[l], l, key, vars);
      if (v !== undefined) return fill(v, vars);
    }
  }
  if (!SHELL.en) loadCatalogue('en').catch(() => {}); // for the next lookups
  return key;
}

// The shell's translator.
export function t(key, vars) {
  return lookup([SHELL], key, vars);
}

// A translator for a game: its own catalogue first (games/<id>/strings), then the shell's.
export function translator(strings) {
  const cats = [strings, SHELL];
  const f = (key, vars) => lookup(cats, key, vars);
  f.has = (key) => cats.some((c) => c && c.en && (key in c.en || `${key}.other` in c.en));
  return f;
}

// Server error codes as sentences; the server's own message when the code is new to us.
export function errorText(code, message) {
  const key = `error.${code}`;
  const s = t(key);
  return s === key ? (message || code) : s;
}

// A number as the language writes it ("9,5" in Spanish and Portuguese); opts: Intl.NumberFormat's.
export function fmtNumber(n, opts) {
  try { return new Intl.NumberFormat(lang, opts).format(n); } catch { return String(n); }
}

export function fmtTime(ms) {
  try { return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(ms)); } catch { return ''; }
}

export function fmtDate(ms) {
  try { return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms)); } catch { return ''; }
}

await loadCatalogue(lang);
document.documentElement.lang = lang;
