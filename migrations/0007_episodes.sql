-- Episodes: conversations held outside the API, posted by a harness when they settle. Each
-- ~30,000-character part becomes one closed session of kind 'episode' holding only its drafted
-- entry (the prose is never stored). The episode id and part are unique per account: the claim
-- that makes a retried or concurrent post draft (and pay for) each part once.
ALTER TABLE journal_sessions DROP CONSTRAINT journal_sessions_kind_check;
ALTER TABLE journal_sessions ADD CONSTRAINT journal_sessions_kind_check
    CHECK (kind IN ('explicit', 'implicit', 'episode'));
ALTER TABLE journal_sessions
    ADD COLUMN episode_id   text,
    ADD COLUMN episode_part integer;
CREATE UNIQUE INDEX journal_sessions_one_per_episode_part
    ON journal_sessions (account_id, episode_id, episode_part) WHERE episode_id IS NOT NULL;
