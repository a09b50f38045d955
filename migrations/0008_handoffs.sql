-- Structured hand-offs: what the assistant ending a session says it decided, left open and
-- would do next, in its own words. Stored with the session, read through the session's own
-- policies; NULL when the session was ended without any.
ALTER TABLE journal_sessions ADD COLUMN handoff jsonb;
