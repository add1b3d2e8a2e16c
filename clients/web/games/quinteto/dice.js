// dice.js (Quinteto): only `{"roll":true}` draws, six-sided dice in stream order: one die in the
// roll-off (recorded as the outcome's `rolloff`), two in a hunt or duel turn (`dice`: [d1, d2])
// (protocol/games/quinteto/README.md). Nothing else draws from the stream.

export default async function quintetoDice(action, outcome, stream) {
  if (!action || action.roll !== true) return null;
  const rec = outcome || {};
  if (rec.rolloff !== null && rec.rolloff !== undefined) {
    const d = await stream.d6();
    return rec.rolloff === d ? null : { field: 'rolloff', archive: JSON.stringify(rec.rolloff), derived: String(d) };
  }
  const dice = [await stream.d6(), await stream.d6()];
  if (JSON.stringify(rec.dice) !== JSON.stringify(dice))
    return { field: 'dice', archive: JSON.stringify(rec.dice), derived: JSON.stringify(dice) };
  return null;
}
