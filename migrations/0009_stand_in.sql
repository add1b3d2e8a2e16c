-- 0009: absent players (protocol.md, Clocks and absent players). An action a
-- stand-in bot made for an absent player (or the server for a Quinteto
-- arranger whose clock ran out) is marked, in the live journal and in the
-- archive, so the archive says who played what. A seat whose player left it
-- to a stand-in or to its clock and never came back is marked abandoned; the
-- player's record counts those.
ALTER TABLE live_actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_seats ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
