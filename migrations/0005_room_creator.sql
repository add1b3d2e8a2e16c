-- 0005: who created each live room. Revision 2 lets only a room's creator or
-- a player seated in it add bots; without this column a restart forgot the
-- creator, and a creator who had not taken a seat lost that right. NULL for
-- rooms journalled before this migration (then only seated players may).
ALTER TABLE live_rooms ADD COLUMN creator_id TEXT;
