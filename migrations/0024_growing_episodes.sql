-- Episodes that grow (issue 33, part 1). A harness posts a conversation again as it grows (a
-- per-turn hook, a resumed conversation); each part's entry is updated when its turns changed,
-- and drafted by the model only once the conversation settled.
--
-- episode_digest: SHA-256 of the part's turns as the model would be sent them (salted with the
-- account, episode and part), so a post of the same turns is recognised and changes nothing;
-- never the prose. NULL for parts posted before this migration: their next post drafts them
-- again once (they are the ones that froze at their first post).
-- episode_open: the part's turns changed since its entry was drafted as settled; its entry is
-- code's until a post finds the conversation settled. Reads show such a part as an open
-- session (no ended_at); its row keeps ended_at, so the quiet sweep, the per-call session
-- lookup and session ends never take it for one.
ALTER TABLE journal_sessions
    ADD COLUMN episode_digest bytea,
    ADD COLUMN episode_open   boolean NOT NULL DEFAULT false;
