-- Open loops (issue 24, part 1): every open question and next step a session hands on becomes
-- an item (`itm_…`) that stays open, whatever the brief's window, until someone closes it.
--
-- * An item is opened when its session closes (ended, swept quiet, or retired): the questions and
--   next steps its assistant stated at the end, and the questions its goal, outcome and purposes
--   mark (`summarize::marked`). The per-call write path is untouched.
-- * A later session that states an open item again (compared as the brief compares items:
--   `summarize::marked::item_key`, kept in `item_key`) opens no second one: it becomes one more
--   source of the same item (see journal::loops for which open items a session may join).
-- * `state` is `open`, then `done`, `answered` or `dropped` with the closing session and time.
--   `stale` is not stored: an open item older than 90 days reads as stale (journal::loops).
--
-- Deleting: an item lives as long as a session that states it does. Each source row is one
-- session stating it, in that session's words, and goes with its session (on purpose, with its
-- day, by retention or with the account). An item left without a source goes too; an item whose
-- opening session went is re-opened by the earliest session still stating it, in that
-- session's words and at its time, so no word of a deleted session survives on the item. An
-- item a deleted session closed stays closed and loses the reference (closed_session_id becomes
-- NULL): the close carried no words of that session, and reopening it would bring back work its
-- owner had finished.

CREATE TABLE journal_loops (
    account_id         uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    loop_id            uuid        NOT NULL,
    kind               text        NOT NULL CHECK (kind IN ('question', 'next_step')),
    -- `item_key(text)`: how two items are compared.
    item_key           text        NOT NULL,
    -- What the opening session said, and whether its assistant stated it (or its text marked it).
    text               text        NOT NULL,
    stated             boolean     NOT NULL,
    -- The opening session: the earliest session still stating the item. Not a foreign key: when
    -- that session goes, the trigger below re-opens the item from the next one (or deletes it).
    session_id         uuid        NOT NULL,
    created_at         timestamptz NOT NULL,
    state              text        NOT NULL DEFAULT 'open'
                                   CHECK (state IN ('open', 'done', 'answered', 'dropped')),
    closed_at          timestamptz,
    closed_session_id  uuid,
    PRIMARY KEY (account_id, loop_id),
    CHECK ((state = 'open') = (closed_at IS NULL)),
    FOREIGN KEY (account_id, closed_session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE SET NULL (closed_session_id)
);
-- Newest first; items opened together keep the order they were stated in (ids ascending).
CREATE INDEX journal_loops_by_time ON journal_loops (account_id, created_at DESC, loop_id);
-- The open item a repeated statement joins.
CREATE INDEX journal_loops_open_by_key ON journal_loops (account_id, kind, item_key)
    WHERE state = 'open';
CREATE INDEX journal_loops_by_session ON journal_loops (account_id, session_id);
CREATE INDEX journal_loops_by_closing_session ON journal_loops (account_id, closed_session_id)
    WHERE closed_session_id IS NOT NULL;

CREATE TABLE journal_loop_sources (
    account_id  uuid        NOT NULL,
    loop_id     uuid        NOT NULL,
    session_id  uuid        NOT NULL,
    kind        text        NOT NULL,
    item_key    text        NOT NULL,
    text        text        NOT NULL,
    stated      boolean     NOT NULL,
    created_at  timestamptz NOT NULL,
    PRIMARY KEY (account_id, loop_id, session_id),
    FOREIGN KEY (account_id, loop_id)
        REFERENCES journal_loops (account_id, loop_id) ON DELETE CASCADE,
    FOREIGN KEY (account_id, session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE CASCADE
);
CREATE INDEX journal_loop_sources_by_session ON journal_loop_sources (account_id, session_id);

-- Reading: an item is visible exactly when its opening session is (as journal_calls_visible);
-- a source when its session is.
ALTER TABLE journal_loops ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_loops FORCE ROW LEVEL SECURITY;
CREATE POLICY journal_loops_visible ON journal_loops FOR SELECT
    USING (EXISTS (SELECT 1 FROM journal_sessions s
                    WHERE s.account_id = journal_loops.account_id
                      AND s.session_id = journal_loops.session_id));
-- Opening: only from a session of the calling credential (its end, or its retired sessions).
CREATE POLICY journal_loops_insert ON journal_loops FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account())
                AND EXISTS (SELECT 1 FROM journal_sessions s
                             WHERE s.account_id = journal_loops.account_id
                               AND s.session_id = journal_loops.session_id
                               AND s.credential_id = (SELECT n8v_credential())));
-- Closing: an item of the caller's own account that it can read. An organization's owner reads
-- its members' organization items but does not close them (as it does not delete their sessions).
CREATE POLICY journal_loops_close ON journal_loops FOR UPDATE
    USING (account_id = (SELECT n8v_account())
           AND EXISTS (SELECT 1 FROM journal_sessions s
                        WHERE s.account_id = journal_loops.account_id
                          AND s.session_id = journal_loops.session_id))
    WITH CHECK (account_id = (SELECT n8v_account()));
CREATE POLICY journal_loops_service ON journal_loops FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));

ALTER TABLE journal_loop_sources ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_loop_sources FORCE ROW LEVEL SECURITY;
CREATE POLICY journal_loop_sources_visible ON journal_loop_sources FOR SELECT
    USING (EXISTS (SELECT 1 FROM journal_sessions s
                    WHERE s.account_id = journal_loop_sources.account_id
                      AND s.session_id = journal_loop_sources.session_id));
CREATE POLICY journal_loop_sources_insert ON journal_loop_sources FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account())
                AND EXISTS (SELECT 1 FROM journal_sessions s
                             WHERE s.account_id = journal_loop_sources.account_id
                               AND s.session_id = journal_loop_sources.session_id
                               AND s.credential_id = (SELECT n8v_credential())));
CREATE POLICY journal_loop_sources_service ON journal_loop_sources FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));

-- The sources a statement deleted (with their sessions, by any path): items left without one go,
-- items whose opening session went are re-opened by the earliest remaining source. Runs as the
-- owner (the deleted sessions are no longer visible to anyone), on the acting account's rows
-- only (the owner's policies below).
--
-- Concurrency: the items are locked first (in id order), and only then, in statements of their
-- own, is what is left of them decided. Under READ COMMITTED each later statement sees what
-- was committed while it waited, so two transactions deleting two sources of one item decide
-- one after the other (the second sees the first's deletion and takes the item, rather than each
-- counting the other's source and leaving the item with neither), and a session joining the
-- item (which locks it FOR SHARE first: journal::loops::opening) is seen, not deleted with it.
CREATE FUNCTION n8v_forget_loop_sources() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM journal_loops l
      WHERE (l.account_id, l.loop_id) IN (SELECT g.account_id, g.loop_id FROM n8v_gone_sources g)
      ORDER BY l.account_id, l.loop_id
        FOR UPDATE;
    DELETE FROM journal_loops l
     USING (SELECT DISTINCT g.account_id, g.loop_id FROM n8v_gone_sources g) g
     WHERE l.account_id = g.account_id AND l.loop_id = g.loop_id
       AND NOT EXISTS (SELECT 1 FROM journal_loop_sources s
                        WHERE s.account_id = l.account_id AND s.loop_id = l.loop_id);
    UPDATE journal_loops l
       SET session_id = f.session_id, text = f.text, stated = f.stated, created_at = f.created_at
      FROM (SELECT DISTINCT ON (s.account_id, s.loop_id) s.*
              FROM journal_loop_sources s
              JOIN n8v_gone_sources g ON g.account_id = s.account_id AND g.loop_id = s.loop_id
             ORDER BY s.account_id, s.loop_id, s.created_at, s.session_id) f
     WHERE l.account_id = f.account_id AND l.loop_id = f.loop_id
       AND EXISTS (SELECT 1 FROM n8v_gone_sources g
                    WHERE g.account_id = l.account_id AND g.loop_id = l.loop_id
                      AND g.session_id = l.session_id);
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION n8v_forget_loop_sources() FROM PUBLIC;

CREATE TRIGGER journal_loop_sources_forget AFTER DELETE ON journal_loop_sources
    REFERENCING OLD TABLE AS n8v_gone_sources
    FOR EACH STATEMENT EXECUTE FUNCTION n8v_forget_loop_sources();

DO $$
DECLARE
    owner_role text := (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                         WHERE c.oid = 'public.journal_loops'::regclass);
BEGIN
    EXECUTE format(
        'CREATE POLICY journal_loops_owner_find ON journal_loops FOR SELECT TO %I '
        'USING (account_id = (SELECT n8v_account()))', owner_role);
    EXECUTE format(
        'CREATE POLICY journal_loops_owner_forget ON journal_loops FOR DELETE TO %I '
        'USING (account_id = (SELECT n8v_account()))', owner_role);
    EXECUTE format(
        'CREATE POLICY journal_loops_owner_reopen ON journal_loops FOR UPDATE TO %I '
        'USING (account_id = (SELECT n8v_account())) '
        'WITH CHECK (account_id = (SELECT n8v_account()))', owner_role);
    EXECUTE format(
        'CREATE POLICY journal_loop_sources_owner_find ON journal_loop_sources FOR SELECT TO %I '
        'USING (account_id = (SELECT n8v_account()))', owner_role);
END $$;
