// learn_script.test.mjs: the guided first match of Quinteto (clients/web/games/quinteto/tutorial.js, played by
// clients/web/lesson.js) on the rules module, in Node: every move of its script is legal where it stands and
// every throw comes out as written; the match shows what the issue asks for, in order (the arranger's circle,
// a hunt turn with a roll and a plan, a capture, an elimination and the circle set again, limbo entered and
// left, the survivor, the duel with a kill) and ends in Red's win; each step that teaches offers exactly one
// move, the player's; Back returns to a step as it was shown; the coach's words exist in every language with
// the arranger named as the rules name it ("Sexto" in Spanish and Portuguese, never "ordenador").
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const web = path.join(process.env.QUINTETO_SOURCE, 'clients', 'web');
const { loadRules } = await import(path.join(web, 'rules-core.js'));
const { Lesson, sameJson } = await import(path.join(web, 'lesson.js'));
const tutorial = (await import(path.join(web, 'games', 'quinteto', 'tutorial.js'))).default;
const core = await loadRules(readFileSync(path.join(process.env.QUINTETO_TEST_WASM, 'rules.wasm')));

// Plays the whole lesson, the player's taught moves included; returns what each step showed.
function playThrough(script = tutorial) {
  const lesson = new Lesson(core, script);
  const shown = [];
  for (;;) {
    const st = lesson.state();
    shown.push({ say: lesson.step.say, state: st, taught: lesson.taught() });
    if (lesson.done) break;
    if (lesson.taught()) {
      // The move taught is one of the rules' legal moves for the player, and the only one the board is given.
      const legal = lesson.match.legal(lesson.seat);
      assert.ok(legal.some((a) => sameJson(a, lesson.taught())), `step ${lesson.step.say}: the taught move is legal`);
      assert.deepEqual(st.legal, [lesson.taught()]);
      assert.ok(st.to_act.includes(lesson.seat), `step ${lesson.step.say}: the player is to act`);
      assert.equal(lesson.play({ roll: 'no' }).ok, false, 'another move is refused');
      assert.equal(lesson.play(lesson.taught()).ok, true);
    } else {
      assert.deepEqual(st.legal, [], `step ${lesson.step.say}: nothing to play`);
      assert.ok(lesson.next());
    }
  }
  return { lesson, shown };
}

test('the guided match runs to its end: circle, hunt, capture, limbo, duel, Red wins', () => {
  const { lesson, shown } = playThrough();
  const outcomes = shown.map((s) => s.state.last?.outcome).filter(Boolean);
  const view = (say) => shown.find((s) => s.say === say).state.view;
  const at = (pred) => shown.findIndex(pred);
  const circle = at((s) => s.state.view.circle.every((x) => x !== null));
  const huntRoll = at((s) => s.taught?.roll && s.state.view.phase === 'hunt');
  const capture = at((s) => s.state.last?.seat === 0 && s.state.last.outcome.captured.length);
  const rearranged = at((s, i) => i > capture && s.state.last?.action?.arrange);
  const limbo = at((s) => s.state.view.stones.some((x) => x.seat === 0 && x.where === 'limbo'));
  const left = at((s, i) => i > limbo && s.state.last?.action?.plan?.some((st) => st.exit));
  const duel = at((s) => s.state.view.phase === 'duel');
  const kill = at((s) => s.state.last?.outcome?.killed?.length);
  const order = [circle, huntRoll, capture, rearranged, limbo, left, duel, kill];
  assert.ok(order.every((i) => i >= 0), `every part is shown: ${order}`);
  assert.deepEqual([...order].sort((a, b) => a - b), order, 'in the order of the game');
  assert.ok(shown[huntRoll + 1].taught.plan, 'a hunt turn: the roll, then a plan');
  assert.ok(outcomes.some((o) => o.eliminated.length && o.phase === 'arrange'), 'an elimination asks for the circle again');
  assert.ok(outcomes.some((o) => o.phase === 'place'), 'a survivor: the hunt ends');
  // Leaving limbo lands on the home and captures there.
  assert.ok(shown[left].state.last.outcome.captured.length, 'the stone out of limbo captures on its home');
  assert.equal(view('won').phase, 'over');
  assert.deepEqual(lesson.state().result, { winner: 0, draw: false, reason: 'duel' });
  assert.equal(lesson.state().status, 'finished');
  // The player makes moves of every kind: the roll-off, rolls, a sum, two steps, limbo in and out, a kill.
  const taught = shown.map((s) => s.taught).filter(Boolean);
  for (const [what, test] of [['a sum', (a) => a.plan?.[0].die === 'sum'], ['two steps', (a) => a.plan?.length === 2],
    ['into limbo', (a) => a.plan?.some((st) => st.enter)], ['out of limbo', (a) => a.plan?.some((st) => st.exit)],
    ['a kill', (a) => a.plan?.some((st) => 'kill' in st)]]) assert.ok(taught.some(test), `the player is taught ${what}`);
});

test('the same match every time, and Back returns to a step as it was shown', () => {
  const a = playThrough().shown.map((s) => JSON.stringify(s.state));
  const b = playThrough().shown.map((s) => JSON.stringify(s.state));
  assert.deepEqual(a, b);
  const lesson = new Lesson(core, tutorial);
  while (!lesson.taught()) lesson.next();
  const before = JSON.stringify(lesson.state());
  lesson.play(lesson.taught());
  const after = JSON.stringify(lesson.state());
  assert.ok(lesson.back());
  assert.equal(JSON.stringify(lesson.state()), before);
  assert.equal(lesson.next(), false, 'a step that teaches goes on only by its move');
  lesson.play(lesson.taught());
  assert.equal(JSON.stringify(lesson.state()), after);
});

test('a script whose dice or moves do not fit the rules is refused at once', () => {
  const bad = structuredClone(tutorial);
  bad.steps[2].you.dice = [7, 1]; // no die shows 7
  assert.throws(() => playThrough(bad), /no seed throws 7,1/);
  const wrong = structuredClone(tutorial);
  wrong.steps[3].you.action.plan[0].steps = 4; // 2 and 3 never move a stone by 4 in one step
  assert.throws(() => playThrough(wrong), /taught move is legal/);
});

test('the coach speaks English, Spanish and Brazilian Portuguese, with the arranger as the rules name it', () => {
  const { en, es, pt } = tutorial.strings;
  const keys = ['learn.title', ...tutorial.steps.map((s) => `coach.${s.say}`)];
  for (const [lang, cat] of Object.entries({ en, es, pt })) {
    for (const k of keys) assert.ok(typeof cat[k] === 'string' && cat[k].trim(), `${k} in ${lang}`);
    assert.deepEqual(Object.keys(cat).sort(), Object.keys(en).sort(), `${lang}: the same keys as English`);
  }
  const all = (cat) => Object.values(cat).join(' ');
  assert.match(all(es), /el Sexto/);
  assert.match(all(pt), /o Sexto/);
  for (const text of [all(es), all(pt)]) assert.doesNotMatch(text, /ordenador/i);
  // Brazilian Portuguese: "você", not the European forms.
  assert.match(all(pt), /você/);
  assert.doesNotMatch(all(pt), /\b(ti|contigo|registo|ecrã|ficheiro|ligação|partilhad\w*)\b/i);
});
