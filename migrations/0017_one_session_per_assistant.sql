-- One assistant, one implicit session (issue 24, part 4).
--
-- A call that names no session joined the credential's most recently active open session,
-- whoever made it: `X-Assistant: codex` calls landed in the implicit session a `curl` call had
-- opened on the same key, labelled `curl/7.88.1`. Now a call joins only a session of its own
-- assistant: the assistant's name as the session keeps it (`X-Assistant`, else the user agent),
-- up to its first `/`, without case, so `curl/7.88.1` and `curl/8.5.0` are one assistant and
-- `codex` another. The 30-minute, 12-hour and credential rules stay as they are.
CREATE FUNCTION n8v_agent(p_assistant text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN lower(btrim(split_part(p_assistant, '/', 1)));

ALTER TABLE journal_sessions
    ADD COLUMN agent text NOT NULL GENERATED ALWAYS AS (n8v_agent(assistant)) STORED;

-- One open implicit session per credential, scope set and assistant: concurrent first calls of
-- one assistant share it.
DROP INDEX journal_sessions_one_open_implicit;
CREATE UNIQUE INDEX journal_sessions_one_open_implicit
    ON journal_sessions (account_id, credential_id, scopes, agent)
    WHERE kind = 'implicit' AND ended_at IS NULL;
