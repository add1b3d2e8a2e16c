-- 0003: what the live journal missed. When the match started (so a match
-- archived after a restart keeps its real times), and a resignation or
-- forfeit (not an action, so not in live_actions) so that a restart does not
-- bring a finished match back to life.
ALTER TABLE live_rooms ADD COLUMN started_at INTEGER;
ALTER TABLE live_rooms ADD COLUMN resigned_seat INTEGER;
ALTER TABLE live_rooms ADD COLUMN resign_reason INTEGER;
ALTER TABLE live_rooms ADD COLUMN ended_at INTEGER;
