// dice.js (Laquet): only `{"roll":true}` draws: two six-sided dice, in stream order, recorded as the
// outcome's `dice` (protocol/games/laquet/README.md). Handed dice and bonus plays reuse dice
// already drawn; nothing else reads the stream.

export default async function laquetDice(action, outcome, stream) {
  if (!action || action.roll !== true) return null;
  const dice = [await stream.d6(), await stream.d6()];
  const rec = outcome || {};
  if (JSON.stringify(rec.dice) !== JSON.stringify(dice))
    return { field: 'dice', archive: JSON.stringify(rec.dice), derived: JSON.stringify(dice) };
  return null;
}
