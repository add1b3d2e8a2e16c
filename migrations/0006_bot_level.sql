-- 0006: a bot seat's level (add_bot's `level`: "random", "greedy", ...), so a
-- restart resumes each bot with the strategy it was added with. NULL: a
-- human, or a bot journalled before levels existed (it played `random`).
ALTER TABLE live_seats ADD COLUMN bot_level TEXT;
