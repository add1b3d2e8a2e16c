-- 0012: the archive's player filter ignores case and accents (GET /api/matches
-- ?player=ana finds Ana and Ána; `quinteto matches --player`). Every seat keeps
-- the key of its name, folded by the server's C function quinteto_fold()
-- (server/store/name_fold.h: lower case, accents and other combining marks
-- dropped, for Latin, Greek and Cyrillic letters), and the filter looks the
-- asked name up folded the same way, newest first on its own index. The seats
-- archived before this migration get their keys here; the server writes the
-- key with every seat it archives from now on. The name itself is kept as it
-- was played under (the archive shows it; GET /api/players/{name} stays exact).
ALTER TABLE match_seats ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
UPDATE match_seats SET name_key = quinteto_fold(name);
CREATE INDEX match_seats_key ON match_seats(name_key, match_seq);
