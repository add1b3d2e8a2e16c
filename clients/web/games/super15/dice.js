// dice.js (Super 1 al 5): the game draws no dice at all (protocol/games/super15/README.md: none), so every action
// is checked as drawing nothing: an archive of it verifies when its commit and seeds do.

export default async function super15Dice() {
  return null;
}
