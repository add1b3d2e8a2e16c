// preview.js: the live room's local rules. When a `state` gives this player's seat legal actions, the position
// is rebuilt in the browser by the game's own C (the WebAssembly rules module, rules-core.js: the same rules
// and the same JSON as the server), so the game view can show what an action would do (where a piece lands,
// what it captures) before anything is sent. It never decides anything: the server's next `state` replaces the
// position, and an action is still sent to the server and applied only when it answers.
//
// The module is loaded lazily, once per page (the first room that can use it), from /wasm/rules.wasm. No
// preview is given (null, and the game view does without one) while it loads, when it cannot be loaded, for a
// game it has no codec for, or when the game's C cannot rebuild exactly the position the state shows (its
// legal list must come out byte for byte the one the server sent).

let loading = null; // the one load of the module: a promise of a RulesCore, or of null when it failed

// The rules module, loaded once: a promise of the RulesCore, or of null (and a warning) when it cannot be.
export function rulesModule() {
  if (!loading) {
    loading = import('./rules-core.js')
      .then((m) => m.loadRules('/wasm/rules.wasm'))
      .catch((e) => {
        console.warn(`the rules module could not be loaded (${e.message}): no preview of moves`);
        return null;
      });
  }
  return loading;
}

// A room's local position. update(state, seat) after every state; preview(action) then answers for it.
// onReady() is called once when the module arrives after a state that wanted it (to draw the preview then).
export class LocalRules {
  constructor(onReady) {
    this.onReady = onReady;
    this.core = null;     // the RulesCore, once loaded
    this.asked = false;   // the module has been asked for
    this.state = null;    // the last state given
    this.seat = null;     // the seat previews are for
    this.match = null;    // the position of `state`, rebuilt; null: no preview
    this.cache = new Map(); // action JSON -> preview, for `match`
  }

  // The new state (the server's: it replaces whatever was previewed) and this player's seat (or null).
  update(state, seat) {
    this.state = state;
    this.seat = seat;
    this.match = null;
    this.cache.clear();
    const legal = Array.isArray(state?.legal) ? state.legal : [];
    const toAct = Array.isArray(state?.to_act) ? state.to_act : [];
    if (state?.status !== 'playing' || seat === null || !toAct.includes(seat) || !legal.length) return;
    if (!this.core) {
      if (!this.asked) {
        this.asked = true;
        rulesModule().then((core) => {
          this.core = core;
          if (core && this.state) {
            this.update(this.state, this.seat);
            if (this.match && this.onReady) this.onReady();
          }
        });
      }
      return;
    }
    // The legal list checks the rebuilt position: it is the seat's, so it is passed only when the seat
    // is the first to act (the one whose list the module compares).
    this.match = this.core.fromView(state.game, {
      view: state.view, to_act: toAct, legal: toAct[0] === seat ? legal : null, ply: state.ply,
    }, { max_turns: state.options?.max_turns || 0 });
  }

  // What `action` (one of the seat's legal actions) would do from the state's position: {view, outcome}, the
  // view and outcome as the server would send them, or null when there is no preview or the rules refuse it.
  preview(action) {
    if (!this.match) return null;
    const key = JSON.stringify(action);
    if (this.cache.has(key)) return this.cache.get(key);
    const m = this.match.clone();
    const r = m.apply(this.seat, action);
    const out = r.error ? null : { view: m.view(), outcome: r.outcome };
    this.cache.set(key, out);
    return out;
  }
}
