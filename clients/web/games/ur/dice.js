// dice.js (Ur): a throw is three tetrahedral dice, one byte each in stream order, a die "marked"
// when its byte is odd; its value from the number of marked dice: none 4, one 0, two 1, three 5
// (protocol/games/ur/README.md). Nothing else in Ur draws from the stream.

export default async function urDice(action, outcome, stream) {
  if (!action || action.roll !== true) return null;
  const dice = [await stream.tetra(), await stream.tetra(), await stream.tetra()];
  const value = [4, 0, 1, 5][dice.filter(Boolean).length];
  const rec = outcome || {};
  if (JSON.stringify(rec.dice) !== JSON.stringify(dice))
    return { field: 'dice', archive: JSON.stringify(rec.dice), derived: JSON.stringify(dice) };
  if (rec.value !== value) return { field: 'value', archive: JSON.stringify(rec.value), derived: String(value) };
  return null;
}
