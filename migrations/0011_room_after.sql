-- 0011: what the seated players of a room set beside the match, so that a
-- restart brings it back as they were told (protocol.md: mute, Rematch):
-- every seat's chat mutes and the rematch offer. One row per room, written
-- whole at each change, in the journal batch of the turn that shows it. It
-- lives as long as the room, past the archiving of its match (a finished room
-- lingers for --finished-room-ttl-s, and its rematch offer lives there), so
-- it does not reference live_rooms: a row whose room is not in live_rooms is
-- a finished room, rebuilt at start-up from its archived match (matches.id)
-- and the fields below that the archive lacks. Dropped when the room goes.
CREATE TABLE live_after (
    room_id    TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,  -- the room's, Unix ms
    creator_id TEXT,              -- the room's creator; NULL: unknown
    bot_levels TEXT NOT NULL,     -- JSON array, seat order: a bot's level, null for a person
    mutes      TEXT NOT NULL,     -- JSON array, seat order: bit s mutes seat s, bit 7 the spectators
    rematch    TEXT               -- JSON {status, by, accepted (a mask of seats), expires_at, room}; NULL: none
) WITHOUT ROWID;
