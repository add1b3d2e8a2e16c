// account.js: accounts in the web client (PROTOCOL.md, "Accounts and ratings"), loaded the first time it is
// needed (the header's "Create account" or "Sign in", or the route #/account): a guest plays without any of
// it. The two dialogs (claim: handle + password + confirm; sign in: handle + password) and the account page
// #/account (the sessions, each can be ended, "this device" marked; change the password; sign out; delete the
// account, confirmed by the password). It sends the account messages through app.net and shows each refusal
// as a translated sentence next to the field it concerns (handle, password, confirm) or at the top of the
// form, and says it in the live region too. app.js hands it the account's messages: it keeps the account
// (app.account) from `welcome.account` and every `account`, says a rated match's rating change, and on
// `signed_out` (asked for, or pushed when the session ended elsewhere) says why and goes on as a new guest.
//
// Dialogs are native <dialog>s opened modal: focus goes to the first field, Tab stays inside, Escape or the
// close button shuts it, and focus returns to the button that opened it. The errors these requests get are
// the forms' to show: their ids are in app.ownErrors, so app.js does not toast them as well.

import { h, clear } from './dom.js';
import { app, announce, toast, saveIdentity } from './core.js';
import { translator, fmtDate } from './i18n.js';
import strings from './i18n/accounts.js';
import { gameLabel } from './games/registry.js';
import { ratingNodes } from './levels.js';
import { loadCss } from './games/common.js';

// This view's words (i18n/accounts.js), then the shell's; its stylesheet, with it rather than the first page.
const t = translator(strings);
await loadCss(new URL('./account.css', import.meta.url)); // (the dialogs open once it applies)

// Which field a refusal concerns (the rest are said at the top of the form).
const FIELD_OF = {
  bad_handle: 'handle', handle_taken: 'handle', bad_password: 'password', mismatch: 'confirm', empty_handle: 'handle',
  empty_password: 'password',
};

// What a person calls this browser ("Chrome, Android"), for the sessions list (`device`, 64 characters at most).
export function deviceName(ua = navigator.userAgent) {
  const browser = /Edg\//.test(ua) ? 'Edge' : /OPR\//.test(ua) ? 'Opera' : /Firefox\//.test(ua) ? 'Firefox'
    : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X/.test(ua) ? 'macOS' : /CrOS/.test(ua) ? 'ChromeOS' : /Linux/.test(ua) ? 'Linux' : '';
  return (os ? `${browser}, ${os}` : browser).slice(0, 64);
}

// The sentence for refusal `code` of an account request (the server's message when the code is new to us).
export function accountError(code, message) {
  const key = `account.error.${code}`;
  const s = t(key);
  if (s !== key) return s;
  const general = t(`error.${code}`);
  return general === `error.${code}` ? (message || code) : general;
}

// Sends `msg`, its refusal left to the caller (not toasted by app.js); resolves with the reply.
export function ask(msg) {
  const req = app.net.request(msg);
  app.ownErrors.add(req.id);
  return req.finally(() => app.ownErrors.delete(req.id));
}

// A labelled field with its own error line (aria-describedby: the hint and the error), for the forms below.
function field(id, label, input, hint) {
  const err = h(`p#${id}-error.field-error`, { hidden: true });
  const hintEl = hint ? h(`p#${id}-hint.note`, hint) : null;
  input.id = id;
  input.setAttribute('aria-describedby', [hintEl ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' '));
  const el = h('div.field', { 'data-field': id }, h('label', { for: id }, label), input, hintEl, err);
  return { el, input, err };
}

// A form's fields and its top message: show(code) puts a refusal where it belongs and says it; reset() clears.
class FormErrors {
  constructor(top, fields, own = {}, keys = {}) {
    this.top = top;
    this.fields = fields; // name -> field()
    this.own = own;       // code -> field name, where this form puts a refusal elsewhere than FIELD_OF says
    this.keys = keys;     // code -> the key of this form's own sentence for it
  }

  reset() {
    this.top.hidden = true;
    this.top.textContent = '';
    for (const f of Object.values(this.fields)) {
      f.err.hidden = true;
      f.err.textContent = '';
      f.input.removeAttribute('aria-invalid');
    }
  }

  show(code, message, fieldName = this.own[code] || FIELD_OF[code]) {
    const text = this.keys[code] ? t(this.keys[code]) : accountError(code, message);
    const f = this.fields[fieldName];
    if (f) {
      f.err.textContent = text;
      f.err.hidden = false;
      f.err.dataset.code = code;
      f.input.setAttribute('aria-invalid', 'true');
      f.input.focus();
    } else {
      this.top.textContent = text;
      this.top.dataset.code = code;
      this.top.hidden = false;
    }
    announce(text);
  }
}

function passwordInput(name, autocomplete) {
  return h('input', { type: 'password', name, autocomplete, maxLength: 128, spellcheck: 'false' });
}

function handleInput(autocomplete) {
  return h('input', { type: 'text', name: 'handle', autocomplete, maxLength: 20, autocapitalize: 'none',
    spellcheck: 'false' });
}

// Runs `send` with the form's button disabled; a refusal goes to `errors`; resolves with the reply or null.
async function submitting(button, errors, send) {
  errors.reset();
  button.disabled = true; // (a disabled button loses focus: given back below unless a field took it)
  try {
    return await send();
  } catch (e) {
    errors.show(e.code || 'error', e.message);
    return null;
  } finally {
    button.disabled = false;
    if (button.isConnected && (document.activeElement === document.body || !document.activeElement)) button.focus();
  }
}

// --- the account's messages (app.js hands them over) ----------------------------------------------------

let renderHeader = () => {};

// app.js's header drawing, for when the account changes; returns this module.
export function hook(fn) {
  renderHeader = fn;
  return { hook, onWelcome, onAccount, onSignedOut, openAccountDialog, AccountView };
}

// The account now (null: a guest): the header, the lobby's "Rated" and the account page follow it.
function setAccount(a) {
  const had = app.account?.handle || null;
  app.account = a;
  document.body.dataset.account = a ? a.handle : '';
  if (had !== (a?.handle || null)) renderHeader();
  app.view?.accountChanged?.();
  if (app.view instanceof AccountView) app.view.render();
}

// A `welcome` (after a hello with an account's token, or a sign-in): `account {handle}` or none.
function onWelcome(msg) {
  const handle = msg.account?.handle || null;
  if (!handle) setAccount(null);
  else if (app.account?.handle !== handle) {
    setAccount({ handle });
    app.net.send({ type: 'account' }); // its sessions and ratings
  }
}

// An `account` message (a reply, or the push after a rated match: each game whose rating moved is said, in
// a toast and the live region, and shown by the room's result).
function onAccount(msg) {
  const before = app.account?.ratings;
  const { type, id, ...a } = msg;
  setAccount(a);
  for (const [game, r] of Object.entries(before ? a.ratings || {} : {})) {
    const old = before[game];
    if (old && old.matches === r.matches) continue;
    const ch = { game, from: old ? Math.round(old.rating) : 1500, to: Math.round(r.rating) };
    ch.text = t('rating.changed', { from: String(ch.from), to: String(ch.to), game: gameLabel(game) }); // "1500", not "1,500"
    app.ratingChanges.push(ch);
    toast(ch.text, 'rating-changed');
    app.view?.ratingChanged?.(ch);
  }
}

// `signed_out`, asked for (sign out, delete) or pushed (the session ended elsewhere, the password changed): the
// connection is back to before hello; it says why and goes on as a new guest under the same name.
function onSignedOut(msg) {
  const reason = msg.reason || 'ended';
  Object.assign(app.identity, { token: null, player: null, seats: {} });
  app.seated = new Set();
  saveIdentity();
  setAccount(null);
  const key = `account.signedOut.${reason}`;
  toast(t(key) === key ? t('account.signedOut.ended') : t(key), `signed-out-${reason}`);
  document.body.dataset.signedOut = reason;
  app.net.rehello();
}

// --- the dialogs ------------------------------------------------------------------------------------

let open = null; // the dialog shown, if any

// Opens dialog `kind` ('claim' or 'signin'); focus returns to `opener` when it closes.
export function openAccountDialog(kind, opener = document.activeElement) {
  if (open) open.close();
  const d = kind === 'claim' ? claimDialog() : signInDialog();
  const dialog = h(`dialog#${kind}-dialog.dialog.card`, { 'aria-labelledby': `${kind}-title` }, d.body);
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (open === dialog) open = null;
    // (after a claim or a sign-in the header's buttons are gone: focus goes to the account's link there)
    const to = opener && opener.isConnected ? opener : document.getElementById('account-link') || document.getElementById('brand');
    to?.focus();
  });
  document.body.append(dialog);
  open = dialog;
  dialog.showModal();
  d.first.focus();
  return dialog;
}

function closeButton() {
  return h('button.dialog-close', { type: 'button', 'aria-label': t('account.close'),
    onclick: (ev) => ev.target.closest('dialog').close() }, '×');
}

function claimDialog() {
  const handle = field('claim-handle', t('account.handle'), handleInput('username'), t('account.handleRules'));
  const password = field('claim-password', t('account.password'), passwordInput('password', 'new-password'),
    t('account.passwordRules'));
  const confirm = field('claim-confirm', t('account.confirm'), passwordInput('confirm', 'new-password'));
  const top = h('p#claim-message.form-error', { hidden: true });
  const errors = new FormErrors(top, { handle, password, confirm });
  const button = h('button#claim-submit.primary', { type: 'submit' }, t('account.claimSubmit'));
  const form = h('form#claim-form.account-form', { novalidate: true,
    onsubmit: async (ev) => {
      ev.preventDefault();
      errors.reset();
      if (!handle.input.value.trim()) { errors.show('empty_handle'); return; }
      if (!password.input.value) { errors.show('empty_password'); return; }
      if (password.input.value !== confirm.input.value) { errors.show('mismatch'); return; }
      const reply = await submitting(button, errors, () => ask({ type: 'claim', handle: handle.input.value.trim(),
        password: password.input.value, device: deviceName() }));
      if (!reply) return;
      onAccount(reply); // (the header shows the handle before the dialog gives focus back: to it)
      form.closest('dialog').close();
      toast(t('account.claimed', { handle: reply.handle }), 'claimed');
    } },
  h('p', t('account.claimIntro')), top, handle.el, password.el, confirm.el,
  h('div.form-buttons', button, h('button', { type: 'button', onclick: () => form.closest('dialog').close() },
    t('account.cancel'))));
  return { first: handle.input,
    body: [h('div.dialog-head', h('h2#claim-title', t('account.claimTitle')), closeButton()), form] };
}

function signInDialog() {
  const handle = field('signin-handle', t('account.handle'), handleInput('username'));
  const password = field('signin-password', t('account.password'), passwordInput('password', 'current-password'));
  const top = h('p#signin-message.form-error', { hidden: true });
  const errors = new FormErrors(top, { handle, password });
  const button = h('button#signin-submit.primary', { type: 'submit' }, t('account.signInSubmit'));
  const form = h('form#signin-form.account-form', { novalidate: true,
    onsubmit: async (ev) => {
      ev.preventDefault();
      errors.reset();
      if (!handle.input.value.trim()) { errors.show('empty_handle'); return; }
      if (!password.input.value) { errors.show('empty_password'); return; }
      const reply = await submitting(button, errors, () => ask({ type: 'sign_in', handle: handle.input.value.trim(),
        password: password.input.value, device: deviceName() }));
      if (!reply) {
        password.input.value = '';
        return;
      }
      onWelcome(reply);
      form.closest('dialog').close();
      toast(t('account.signedIn', { handle: reply.account?.handle || handle.input.value.trim() }), 'signed-in');
    } },
  h('p', t('account.signInIntro')), top, handle.el, password.el,
  h('div.form-buttons', button, h('button', { type: 'button', onclick: () => form.closest('dialog').close() },
    t('account.cancel'))));
  return { first: handle.input,
    body: [h('div.dialog-head', h('h2#signin-title', t('account.signInTitle')), closeButton()), form] };
}

// --- #/account ----------------------------------------------------------------------------------------

export class AccountView {
  constructor(appState) {
    this.app = appState;
    this.body = h('div.account-body', h('p.loading', t('account.loading')));
    this.el = h('section.account-page.card',
      h('header.room-head', h('a.back', { href: '#/' }, t('room.back')),
        h('h1#account-title', { tabindex: '-1' }, t('account.title'))),
      this.body);
    queueMicrotask(() => this.el.querySelector('h1').focus({ preventScroll: true }));
    if (this.app.account?.sessions) this.render();
    if (this.app.account) ask({ type: 'account' }).catch(() => {}); // the sessions as they are now (app.js keeps it)
    else this.render();
  }

  // Drawn again by app.js whenever an `account` message comes (or the person is signed out). The forms are
  // made once per account (what is typed in them survives a push); the summary and the sessions are redrawn,
  // and focus, if it was on something redrawn, goes back to the element of the same id (else the heading).
  render() {
    const a = this.app.account;
    const had = this.body.contains(document.activeElement) ? document.activeElement.id : null;
    if (!a || !a.sessions) {
      this.forms = null;
      clear(this.body).append(...(a ? [h('p.loading', t('account.loading'))] : this.guest()));
    } else {
      if (!this.forms || this.forms.handle !== a.handle) {
        this.forms = { handle: a.handle, summary: h('div'), sessions: h('div') };
        clear(this.body).append(this.forms.summary, this.forms.sessions, this.passwordForm(), this.signOut(), this.deleteForm());
      }
      this.forms.summary.replaceWith(this.forms.summary = this.summary(a));
      this.forms.sessions.replaceWith(this.forms.sessions = this.sessions(a));
    }
    const after = this.focusAfter && document.getElementById(this.focusAfter);
    this.focusAfter = null;
    if (after) after.focus({ preventScroll: true });
    else if (had !== null && !this.body.contains(document.activeElement)) {
      (had && document.getElementById(had) || this.el.querySelector('h1')).focus({ preventScroll: true });
    }
  }

  guest() {
    return [h('p#account-guest', t('account.guestNote')),
      h('div.form-buttons',
        h('button#account-claim.primary', { type: 'button', onclick: (ev) => openAccountDialog('claim', ev.target) },
          t('account.create')),
        h('button#account-signin', { type: 'button', onclick: (ev) => openAccountDialog('signin', ev.target) },
          t('account.signIn')))];
  }

  summary(a) {
    const ratings = Object.entries(a.ratings || {});
    return h('section.account-summary',
      h('dl.account-facts',
        h('dt', t('account.handle')), h('dd#account-handle', a.handle),
        h('dt', t('account.name')), h('dd', a.name || ''),
        h('dt', t('account.since')), h('dd', fmtDate(a.created_at))),
      h('p', h('a#account-player-link', { href: `#/players/${encodeURIComponent(a.handle)}` }, t('account.playerPage'))),
      h('h2', t('account.ratings')),
      ratings.length ? h('ul#account-ratings.account-ratings', ratings.map(([game, r]) =>
        h('li', { 'data-game': game }, h('span.game', gameLabel(game)), ': ', ratingNodes(r),
          ' ', h('span.note', t('account.ratedMatches', { n: r.matches })))))
        : h('p.note#account-ratings', t('account.noRatings')));
  }

  sessions(a) {
    const list = h('ul#account-sessions.session-list', a.sessions.map((s) => h('li.session', { 'data-session': s.id,
      'data-current': s.current ? 'true' : null },
    h('span.session-device', s.device || t('account.unknownDevice')),
    s.current ? h('span.badge.you', t('account.thisDevice')) : null,
    h('span.note', ` ${t('account.sessionSeen', { created: fmtDate(s.created_at), seen: fmtDate(s.seen_at) })}`),
    h('button.end-session', { type: 'button', id: `end-${s.id}`, 'data-session': s.id,
      'aria-label': t('account.endSessionOf', { device: s.device || t('account.unknownDevice'), seen: fmtDate(s.seen_at) }),
      onclick: async (ev) => {
        ev.target.disabled = true;
        this.focusAfter = 'sessions-title'; // (the list is drawn again without this button)
        try {
          await ask({ type: 'end_session', session: s.id });
          announce(t('account.sessionEnded'));
        } catch (e) {
          this.focusAfter = null;
          ev.target.disabled = false;
          ev.target.focus();
          toast(accountError(e.code, e.message), e.code);
        }
      } }, s.current ? t('account.endThis') : t('account.endSession')))));
    return h('section.account-sessions', h('h2#sessions-title', { tabindex: '-1' }, t('account.sessions')), h('p.note', t('account.sessionsNote')), list);
  }

  passwordForm() {
    const old = field('password-old', t('account.oldPassword'), passwordInput('old', 'current-password'));
    const next = field('password-new', t('account.newPassword'), passwordInput('new', 'new-password'), t('account.passwordRules'));
    const confirm = field('password-confirm', t('account.confirm'), passwordInput('confirm', 'new-password'));
    const top = h('p#password-message.form-error', { hidden: true });
    const errors = new FormErrors(top, { old, password: next, confirm }, { wrong_credentials: 'old', empty_password: 'old' },
      { wrong_credentials: 'account.error.wrong_password' });
    const button = h('button#password-submit', { type: 'submit' }, t('account.changePassword'));
    const form = h('form#password-form.account-form', { novalidate: true,
      onsubmit: async (ev) => {
        ev.preventDefault();
        errors.reset();
        if (!old.input.value) { errors.show('empty_password'); return; }
        if (next.input.value !== confirm.input.value) { errors.show('mismatch'); return; }
        const reply = await submitting(button, errors, () => ask({ type: 'password', old: old.input.value, new: next.input.value }));
        // `signed_out` (revoked): the session was ended elsewhere meanwhile, nothing changed; app.js made the page a guest's
        if (!reply || reply.type !== 'account') return;
        for (const f of [old, next, confirm]) f.input.value = '';
        toast(t('account.passwordChanged'), 'password-changed');
      } },
    top, old.el, next.el, confirm.el, h('p.note', t('account.passwordNote')), h('div.form-buttons', button));
    return h('section.account-password', h('h2', t('account.changePassword')), form);
  }

  signOut() {
    return h('section.account-signout', h('h2', t('account.signOut')), h('p.note', t('account.signOutNote')),
      h('button#sign-out', { type: 'button', onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          await ask({ type: 'sign_out' }); // the `signed_out` reply: app.js makes this page a guest's
        } catch (e) {
          ev.target.disabled = false;
          toast(accountError(e.code, e.message), e.code);
        }
      } }, t('account.signOut')));
  }

  deleteForm() {
    const pw = field('delete-password', t('account.password'), passwordInput('password', 'current-password'));
    const top = h('p#delete-message.form-error', { hidden: true });
    const errors = new FormErrors(top, { password: pw }, { wrong_credentials: 'password' },
      { wrong_credentials: 'account.error.wrong_password' });
    const button = h('button#delete-submit.danger', { type: 'submit' }, t('account.deleteSubmit'));
    const form = h('form#delete-form.account-form', { novalidate: true,
      onsubmit: async (ev) => {
        ev.preventDefault();
        errors.reset();
        if (!pw.input.value) { errors.show('empty_password'); return; }
        await submitting(button, errors, () => ask({ type: 'delete_account', password: pw.input.value }));
      } },
    h('p', t('account.deleteNote')), top, pw.el, h('div.form-buttons', button));
    return h('details.account-delete', h('summary', t('account.delete')), form);
  }

  pageTitle() { return t('account.title'); }

  destroy() {}
}
