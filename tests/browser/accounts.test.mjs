// accounts.test.mjs: accounts and ratings in the web client (issue 26), in Debian's Chromium against the real
// server (one for the file; about 20 s, the timeouts are for a loaded machine). A guest plays at once (a room
// against the computer, a move or two), then claims its identity from the header's "Create account" (a
// mismatched confirmation and a refused handle are said by their fields first); a second browser context, in
// Spanish, is refused a wrong password (the refusal in Spanish, in the form), then signs in to the same account
// and finds the same room and seat. A rated room created from the lobby is played against a second account (the
// Node test client, which claims its own account over the WebSocket), whose seat shows its provisional rating
// (1500?, and in words for a screen reader); the opponent resigns, the page says the rating change (the
// `account` push) and the player page's SVG graph has a point for that match (axe-core finds nothing there); the
// leaderboard lists the account. The second context signs out from #/account and goes on as a guest while the
// first stays signed in. Then, from the first context's #/account: a password change signs the second context
// (signed in again) out, and its page is a guest's; the old password is refused, the new one signs it in; the
// second context's session is ended from the sessions list (signed out again); the account is deleted (its
// room resigned first): the player page answers that nobody has played under the handle, the leaderboard
// leaves it out, and the archived rated match shows its seat as "(deleted)".

import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Server, newPlayerPage, createRoom, noProblems, browserFor, closeAll, MANUAL, QUICK_BOTS, waitTurnOrResult,
  playRandomLegal,
} from './lib.mjs';
import { joinRoom } from '../lib/client.mjs';
import { axeClean } from '../lib/axe.mjs';

const SRC = process.env.QUINTETO_SOURCE;
// The account views' words (their own catalogue, clients/web/i18n/accounts.js).
const acc = (await import(pathToFileURL(path.join(SRC, 'clients/web/i18n/accounts.js')).href)).default;
const en = acc.en;

const browser = browserFor(test);
let srv;
// The least Argon2id memory the server takes (docs/ACCOUNTS.md): a few passwords hashed under ASan.
test.before(async () => { srv = await Server.start({ ...QUICK_BOTS, args: ['--pwhash-mem-kib', '19456'] }); });
test.after(async () => { if (srv) await srv.stop(); });

const online = (page) => page.waitForFunction(() => window.quinteto && window.quinteto.connection === 'online');
const HANDLE = 'Ana_R';
const PASSWORD = 'correct horse 26';
let first; // the room the guest plays in
let rated; // the rated match against Bruno_T

let a; // the first browser context: the guest who claims
let b; // the second, in Spanish: signs in to the same account
test.after(async () => { await closeAll([a, b].filter(Boolean)); });

test('a guest plays, claims from the header, and a second context signs in to the same room and seat', { timeout: 60000 }, async () => {
  a = await newPlayerPage(browser(), { server: srv, label: 'first', ...MANUAL });
  b = await newPlayerPage(browser(), { server: srv, label: 'second', locale: 'es-ES', ...MANUAL });
  // A guest plays at once: a room against the computer, a move or two.
  await a.goto(`${srv.url}/?name=Ana`);
  await online(a);
  first = await createRoom(a, { game: 'ur', vsBot: true });
  for (let i = 0; i < 2; i++) {
    await waitTurnOrResult(a);
    if (!(await playRandomLegal(a))) break;
  }
  assert.ok((await a.evaluate(() => window.quinteto.sent.length)) >= 1, 'the guest made a move');

  // Claim from the header: the dialog takes focus; errors are said next to their fields.
  await a.click('#header-claim');
  await a.waitForSelector('#claim-dialog[open]');
  assert.equal(await a.evaluate(() => document.activeElement.id), 'claim-handle');
  assert.equal(await a.getAttribute('#claim-password', 'autocomplete'), 'new-password');
  await a.fill('#claim-handle', HANDLE);
  await a.fill('#claim-password', PASSWORD);
  await a.fill('#claim-confirm', 'something else');
  await a.click('#claim-submit');
  assert.equal(await a.textContent('#claim-confirm-error'), en['account.error.mismatch']);
  await a.fill('#claim-handle', 'a b');
  await a.fill('#claim-confirm', PASSWORD);
  await a.click('#claim-submit');
  await a.waitForSelector('#claim-handle-error:not([hidden])');
  assert.equal(await a.getAttribute('#claim-handle-error', 'data-code'), 'bad_handle');
  assert.equal(await a.textContent('#claim-handle-error'), en['account.error.bad_handle']);
  await a.fill('#claim-handle', HANDLE);
  await a.click('#claim-submit');
  await a.waitForSelector('#account-link');
  assert.match(await a.textContent('#account-link'), new RegExp(HANDLE));
  assert.equal(await a.locator('#claim-dialog').count(), 0, 'the dialog closed');
  assert.equal(await a.evaluate(() => document.activeElement.id), 'account-link', 'focus on the header\'s account link');
  assert.ok(await a.evaluate(() => window.quinteto.account?.handle === 'Ana_R'));

  // A second context, in Spanish: a wrong password is refused in Spanish, then the same account signs in
  // (its handle typed in another case) and finds the same room, the same seat.
  await b.goto(`${srv.url}/?name=Otra`);
  await online(b);
  await b.click('#header-signin');
  await b.waitForSelector('#signin-dialog[open]');
  assert.equal(await b.getAttribute('#signin-password', 'autocomplete'), 'current-password');
  await b.fill('#signin-handle', 'ana_r');
  await b.fill('#signin-password', 'not the password');
  await b.click('#signin-submit');
  await b.waitForSelector('#signin-message:not([hidden])');
  assert.equal(await b.textContent('#signin-message'), acc.es['account.error.wrong_credentials']);
  await b.fill('#signin-password', PASSWORD);
  await b.click('#signin-submit');
  await b.waitForSelector('#account-link');
  assert.match(await b.textContent('#account-link'), new RegExp(HANDLE));
  await b.waitForSelector(`#my-rooms [data-room="${first}"] a`);
  await b.click(`#my-rooms [data-room="${first}"] a`);
  await b.waitForSelector(`body[data-room="${first}"][data-my-seat="0"]`);
  noProblems(a, b);
  srv.assertValid();
});

test('a rated room against a second account: its provisional rating, the rating change said, the graph\'s point', { timeout: 60000 }, async () => {
  // The opponent: the Node test client, which claims its own account over the WebSocket.
  const bruno = await srv.player('Bruno');
  try {
    const claimed = await bruno.request({ type: 'claim', handle: 'Bruno_T', password: 'another pass 26' });
    assert.equal(claimed.type, 'account', JSON.stringify(claimed));
    await a.goto(`${srv.url}/?name=Ana#/`);
    await a.waitForSelector('#new-rated:not([disabled])');
    rated = await createRoom(a, { game: 'ur', checks: { 'new-rated': true } });
    await a.waitForSelector('#rated-tag');
    assert.equal(await a.locator('.seats .add-bot').count(), 0, 'no Add bot in a rated room');
    await joinRoom(bruno, rated, { seat: 1 });
    await a.waitForSelector('body[data-status="playing"]');
    const opp = a.locator('.seats [data-handle="Bruno_T"] .rating');
    await opp.waitFor();
    assert.match(await opp.locator('[aria-hidden="true"]').innerText(), /^1500\?$/);
    assert.equal(await opp.locator('.sr-only').innerText(), 'rating 1500, provisional');
    const r = await bruno.request({ type: 'resign', room: rated });
    assert.equal(r.type, 'resigned', JSON.stringify(r));
    await a.waitForSelector('#result');
    await a.waitForSelector('#rating-change', { timeout: 10000 }); // the `account` push, said with the result
    const ch = await a.evaluate(() => window.quinteto.ratingChanges.at(-1));
    assert.equal(ch.game, 'ur');
    assert.ok(ch.to > ch.from, `the winner's rating rose: ${JSON.stringify(ch)}`);
    assert.equal(await a.locator('#rating-change').getAttribute('data-to'), String(ch.to));

    // The player page: the rating, and a point of the graph for that match; axe-core finds nothing there.
    await a.goto(`${srv.url}/?name=Ana#/players/${HANDLE}`);
    const point = a.locator(`.rating-game[data-game="ur"] svg.rating-graph circle[data-match="${rated}"]`);
    await point.waitFor();
    assert.equal(Number(await point.getAttribute('data-rating')), ch.to);
    assert.match(await a.locator('.rating-game[data-game="ur"] svg title').textContent(), /Ana_R/);
    assert.ok(await a.locator(`#player-recent [data-match="${rated}"] a[href="#/replay/${rated}"]`).count(), 'the match among the recent ones');
    await axeClean(a, 'the player page');
    await a.goto(`${srv.url}/?name=Ana#/leaderboard?game=ur`);
    await a.waitForSelector(`#leaderboard tr[data-handle="${HANDLE}"]`);
    noProblems(a);
    srv.assertValid();
  } finally {
    bruno.close();
  }
});

test('the second context signs out from #/account and goes on as a guest; the first stays signed in', { timeout: 60000 }, async () => {
  await b.goto(`${srv.url}/?name=Otra#/account`);
  await b.waitForSelector('#account-sessions [data-current="true"]');
  assert.equal(await b.locator('#account-sessions .session').count(), 2, 'a session per device');
  const year = String(new Date().getFullYear());
  assert.ok((await b.locator('#account-sessions').innerText()).includes(year), 'the sessions are dated (not 1970)');
  assert.ok((await b.locator('.account-facts').innerText()).includes(year), 'the account is dated (not 1970)');
  await b.click('#sign-out');
  await b.waitForSelector('#header-claim');
  await b.waitForSelector('body[data-signed-out="signed_out"]');
  await b.waitForSelector('#account-guest');
  await online(b);
  assert.equal(await b.evaluate(() => window.quinteto.account), null);
  await b.waitForFunction(() => window.quinteto.welcomes >= 3); // hello, sign_in, then as a new guest
  assert.ok(await a.locator('#account-link').count(), 'the first context is still signed in');
  noProblems(a, b);
  srv.assertValid();
});

// Signs page `p` in to the account from the header (the Spanish context's words need not be read).
async function signIn(p, password) {
  await p.click('#header-signin');
  await p.waitForSelector('#signin-dialog[open]');
  await p.fill('#signin-handle', HANDLE);
  await p.fill('#signin-password', password);
  await p.click('#signin-submit');
}

test('#/account: a password change signs the other device out, a session is ended from the list, the account is deleted', { timeout: 60000 }, async () => {
  const NEW = 'battery staple 26';
  // The second context signs in again: the password change must sign it out.
  await b.goto(`${srv.url}/?name=Otra#/`);
  await online(b);
  await signIn(b, PASSWORD);
  await b.waitForSelector('#account-link');
  await a.goto(`${srv.url}/?name=Ana#/account`);
  await a.waitForSelector('#password-form');
  await a.fill('#password-old', PASSWORD);
  await a.fill('#password-new', NEW);
  await a.fill('#password-confirm', NEW);
  await a.click('#password-submit');
  // The toast is read from the element waited for: it leaves after 4.8 s.
  const changed = await a.waitForSelector('.toast[data-code="password-changed"]');
  assert.equal(await changed.textContent(), en['account.passwordChanged']);
  await b.waitForSelector('body[data-signed-out="password"]');
  await b.waitForSelector('#header-claim');
  assert.equal(await b.evaluate(() => window.quinteto.account), null, 'the other context is a guest again');
  assert.equal(await a.evaluate(() => window.quinteto.account?.handle), HANDLE, 'this one stays signed in');

  // The old password no longer signs in; the new one does.
  await online(b);
  await signIn(b, PASSWORD);
  await b.waitForSelector('#signin-message:not([hidden])');
  assert.equal(await b.textContent('#signin-message'), acc.es['account.error.wrong_credentials']);
  await b.fill('#signin-password', NEW);
  await b.click('#signin-submit');
  await b.waitForSelector('#account-link');

  // The first context ends the second's session from its list (this device's is marked, the other is not).
  await a.reload();
  await online(a);
  await a.waitForFunction(() => document.querySelectorAll('#account-sessions .session').length === 2);
  const other = a.locator('#account-sessions .session:not([data-current="true"]) button.end-session');
  assert.equal(await other.count(), 1, 'one session besides this device\'s');
  await other.click();
  await b.waitForSelector('body[data-signed-out="ended"]');
  await b.waitForSelector('#header-claim');
  assert.equal(await b.evaluate(() => window.quinteto.account), null, 'the ended session\'s page is a guest\'s');
  await a.waitForFunction(() => document.querySelectorAll('#account-sessions .session').length === 1);
  assert.equal(await a.locator('#account-sessions .session[data-current="true"]').count(), 1, 'this device\'s session is left');

  // Delete the account: the room it still plays in is resigned first (a seat held refuses the deletion).
  await a.goto(`${srv.url}/?name=Ana#/room/${first}`);
  await a.waitForSelector(`body[data-room="${first}"][data-status]`);
  if (await a.evaluate(() => document.body.dataset.status) === 'playing') {
    a.once('dialog', (d) => d.accept());
    await a.click('button.resign');
    await a.waitForSelector('#result');
  }
  await a.goto(`${srv.url}/?name=Ana#/account`);
  await a.click('details.account-delete summary'); // the form is folded away until opened
  await a.waitForSelector('#delete-form');
  await a.fill('#delete-password', NEW);
  await a.click('#delete-submit');
  await a.waitForSelector('body[data-signed-out="deleted"]');
  await a.waitForSelector('#header-claim');
  assert.equal(await a.evaluate(() => window.quinteto.account), null, 'a guest after the deletion');

  // The handle is nobody's: the player page says so, the leaderboard leaves it out; the archived match stays,
  // its seat renamed.
  await a.goto(`${srv.url}/?name=Ana#/players/${HANDLE}`);
  await a.waitForSelector('#player-missing');
  assert.equal(await a.textContent('#player-missing'), en['player.unknown'].replace('{name}', HANDLE));
  a.problems = a.problems.filter((p) => !/status of 404/.test(p)); // the browser logs the API's 404 answer
  await a.goto(`${srv.url}/?name=Ana#/leaderboard?game=ur`);
  await a.waitForSelector('#leaderboard tr[data-handle="Bruno_T"]');
  assert.equal(await a.locator(`#leaderboard tr[data-handle="${HANDLE}"]`).count(), 0, 'the leaderboard leaves it out');
  await a.goto(`${srv.url}/?name=Ana#/matches`);
  const row = a.locator(`[data-match="${rated}"] .match-players`);
  await row.waitFor();
  const players = await row.innerText();
  assert.match(players, /\(deleted\)/, `the archived match's seat: ${players}`);
  assert.match(players, /Bruno/);
  noProblems(a, b);
  srv.assertValid();
});

