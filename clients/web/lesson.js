// lesson.js: a guided match's script played by the rules module (rules-core.js: the server's own C in
// WebAssembly), with no page and no server: the part of learn.js that Node's tests run as well. A game's
// tutorial (games/<id>/tutorial.js, the module contract's optional `tutorial`) gives a script of steps; each
// step is shown with the coach's words (`say`, a key of the tutorial's catalogues) and either waits for the
// player's taught action (`you`) or for "Next" (after playing the bots' actions of the step, `act`, on
// entering it). A step's action that rolls names the dice it must give (`dice`: [d] or [d1, d2]); the runner
// finds the dice stream that gives them by trying the seeds SHA-256("learn <ply> <k>") for k = 0, 1, ... on a
// copy of the match (the same seeds every time, so the lesson is the same match for everyone), then reseeds
// the match with it: the same as a fixed seed chosen offline, but kept readable in the script.
//
//   const lesson = new Lesson(core, tutorial);   // core: a RulesCore; the match starts at step 0
//   lesson.step, lesson.at, lesson.match         // the step shown, its index, the match as shown
//   lesson.taught()                              // the action the player is to make now, or null
//   lesson.play(action) -> {ok, error?}          // the player's action (must be the taught one)
//   lesson.next(); lesson.back()                 // on to the next step (its bots act) / back one step

const enc = new TextEncoder();
const MAX_SEEDS = 4096; // a throw of two dice has 36 faces: far more tries than any throw needs

// Key-order-insensitive equality of two actions (JSON values).
export function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

// The dice an outcome shows: a two-dice roll's [d1, d2], a one-die roll-off's [d], else null.
function diceOf(outcome) {
  if (Array.isArray(outcome?.dice)) return outcome.dice;
  if (typeof outcome?.rolloff === 'number') return [outcome.rolloff];
  return null;
}

// The seats of a lesson's `state` (as a room's: games/base.js views and the shell may read them): the player's
// seat named `name` (or null), every other a bot named by the game's label for its seat.
export function lessonSeats(module, seat, name = null) {
  return module.roles.map((role, i) => ({
    seat: i, role, bot: i !== seat, connected: true, stand_in: false,
    name: i === seat ? name : (typeof module.seatLabel === 'function' ? module.seatLabel(i) : module.roleLabel(role)),
  }));
}

export class Lesson {
  // core: a RulesCore; tutorial: {game, seat, options?, steps: [{say, act?: [move], you?: move}]}, a move
  // being {seat?, action, dice?} (a `you` move is the tutorial's seat's).
  constructor(core, tutorial) {
    this.core = core;
    this.tutorial = tutorial;
    this.seat = tutorial.seat;
    this.match = core.newMatch(tutorial.game, new Uint8Array(32), tutorial.options || {});
    this.snaps = [];    // snaps[k]: the match as step k shows it
    this.lasts = [];    // lasts[k]: the latest action when step k is shown ({seat, action, outcome, prev}) or null
    this.at = -1;
    this.enter(0, null);
  }

  get steps() { return this.tutorial.steps; }
  get step() { return this.steps[this.at]; }
  get last() { return this.lasts[this.at]; }
  get done() { return this.at === this.steps.length - 1; }

  // The action the player is to make at this step, or null (the step waits for "Next").
  taught() { return this.step.you ? this.step.you.action : null; }

  // Plays one move on the match: reseeded first when it names its dice. {seat, action, outcome, prev} or throws.
  apply(move, seat) {
    const prev = this.match.view();
    if (move.dice) this.match.reseed(this.seedFor(seat, move));
    const r = this.match.apply(seat, move.action);
    if (r.error) throw new Error(`step ${this.at}: ${JSON.stringify(move.action)} by seat ${seat}: ${r.error}`);
    const got = diceOf(r.outcome);
    if (move.dice && !sameJson(got, move.dice)) throw new Error(`step ${this.at}: dice ${got}, not ${move.dice}`);
    return { seat, action: move.action, outcome: r.outcome, prev };
  }

  // The first seed of the lesson's list that makes `move` throw its dice from the match as it is.
  seedFor(seat, move) {
    const base = this.match.snapshot();
    const ply = this.match.ply;
    const probe = this.match.clone();
    try {
      for (let k = 0; k < MAX_SEEDS; k++) {
        const seed = this.core.sha256(enc.encode(`learn ${ply} ${k}`));
        probe.restore(base);
        probe.reseed(seed);
        const r = probe.apply(seat, move.action);
        if (!r.error && sameJson(diceOf(r.outcome), move.dice)) return seed;
      }
    } finally {
      this.match.restore(base);
    }
    throw new Error(`no seed throws ${move.dice} for ${JSON.stringify(move.action)}`);
  }

  // Shows step k, reached from the position now in the match: its bots' actions are played first.
  enter(k, last) {
    this.at = k;
    for (const move of this.steps[k].act || []) last = this.apply(move, move.seat);
    this.snaps[k] = this.match.snapshot();
    this.lasts[k] = last;
  }

  // The player's action: the taught one is played (and the lesson goes on to the next step); any other is
  // refused with {ok: false, error} and nothing changes.
  play(action) {
    const move = this.step.you;
    if (!move || !sameJson(action, move.action)) return { ok: false, error: 'not_taught' };
    const last = this.apply(move, this.seat);
    this.enter(this.at + 1, last);
    return { ok: true };
  }

  // On to the next step (a step that waits for the player's action goes on only by play()).
  next() {
    if (this.done || this.step.you) return false;
    this.match.restore(this.snaps[this.at]);
    this.enter(this.at + 1, this.last);
    return true;
  }

  // Back to the step before, as it was shown.
  back() {
    if (this.at === 0) return false;
    this.at -= 1;
    this.match.restore(this.snaps[this.at]);
    return true;
  }

  // The position shown as a room's `state` (games/base.js): for the game's own view. Only the taught action
  // is legal at a step that teaches one; none at the others (the board is then to look at).
  state() {
    this.match.restore(this.snaps[this.at]);
    const toAct = this.match.toAct();
    const over = toAct.length === 0;
    const taught = this.taught();
    const last = this.last;
    return {
      type: 'state', room: `learn-${this.tutorial.game}`, game: this.tutorial.game,
      status: over ? 'finished' : 'playing', ply: this.match.ply, to_act: toAct, view: this.match.view(),
      legal: taught ? [taught] : [], last: last ? { seat: last.seat, action: last.action, outcome: last.outcome } : null,
      result: over ? this.match.result() : null, options: this.tutorial.options || {},
    };
  }

  // What the taught action would do ({view, outcome}, as a room's preview), or null for any other action.
  preview(action) {
    const move = this.step.you;
    if (!move || !this.match) return null;
    const m = this.match.clone();
    m.restore(this.snaps[this.at]);
    // A plan step of the taught action alone, or the whole of it: each is a beginning of the one legal plan.
    const r = m.apply(this.seat, action);
    return r.error ? null : { view: m.view(), outcome: r.outcome };
  }
}
