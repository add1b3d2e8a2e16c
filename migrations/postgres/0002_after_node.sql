-- PostgreSQL 0002: the node of a finished room that lingers (live_after).
-- Its live_rooms row, which says which node hosts the room, is gone once the
-- match is archived, but the room lives on for --finished-room-ttl-s with its
-- rematch offer: the node that hosts it keeps it, and a node restarting (or
-- adopting a dead node's rooms) rebuilds only its own. NULL: a single server.
ALTER TABLE live_after ADD COLUMN node TEXT;
CREATE INDEX live_after_node ON live_after(node, created_at);
