-- Authors and releases (issue 53, parts 1 to 3).
--
-- 1. Who wrote it. A session keeps the label of the key that opened it (`key_label`), copied
--    when the session is written, so every item and line from it names its author (the
--    assistant and the key's label) without reading credentials: the application role cannot,
--    and a label changed or a key revoked later does not rewrite what was said. The copy is
--    the column's default, taken by `n8v_key_label()` from the calling credential only (a
--    SECURITY DEFINER lookup of its own row), cleaned as a one-line text: control and format
--    characters dropped, at most 80 characters. "you" is the person's, never a label: a label
--    that reads "you" is copied as `“you” (a key's label)`. Sessions written before this keep
--    NULL and name their assistant only.
-- 2. Released by the person. An item the withholding rules keep out of every automatic
--    hand-off is handed over again once the person releases it: a release names the item, the
--    exact text released (an item re-opened later in other words is judged again), the key
--    of the signed-in page that released it and when. Only a credential holding
--    `chats:release` releases (a scope OAuth grants never carry, and keys hold only when made
--    with it), and only the journal pages' signed-in forms do: no API route writes here.
-- 3. Deleted by the person. The same scope deletes an item of its own account (its sources go
--    with it; the entry it came from keeps its words until that is deleted too).

CREATE FUNCTION n8v_key_label() RETURNS text
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT CASE WHEN lower(btrim(l.label, ' "''“”‘’.:')) = 'you' THEN '“you” (a key''s label)'
                ELSE l.label END
      FROM (SELECT NULLIF(left(btrim(regexp_replace(c.name, '[[:cntrl:]\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]', '', 'g')), 80), '') AS label
              FROM credentials c
             WHERE c.account_id = (SELECT n8v_account())
               AND c.credential_id = (SELECT n8v_credential())) l
$$;
REVOKE ALL ON FUNCTION n8v_key_label() FROM PUBLIC;

ALTER TABLE journal_sessions ADD COLUMN key_label text DEFAULT n8v_key_label();

CREATE TABLE journal_releases (
    account_id     uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    loop_id        uuid        NOT NULL,
    -- The text released: the item is handed over while its text is this one.
    text           text        NOT NULL,
    credential_id  uuid        NOT NULL,
    released_at    timestamptz NOT NULL,
    PRIMARY KEY (account_id, loop_id, released_at),
    FOREIGN KEY (account_id, loop_id)
        REFERENCES journal_loops (account_id, loop_id) ON DELETE CASCADE
);
ALTER TABLE journal_releases ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_releases FORCE ROW LEVEL SECURITY;
-- Read with the item: whoever reads the item reads that it was released.
CREATE POLICY journal_releases_visible ON journal_releases FOR SELECT
    USING (EXISTS (SELECT 1 FROM journal_loops l
                    WHERE l.account_id = journal_releases.account_id
                      AND l.loop_id = journal_releases.loop_id));
-- Made by the person: an item of the caller's own account, with `chats:release`, as itself.
CREATE POLICY journal_releases_insert ON journal_releases FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account())
                AND credential_id = (SELECT n8v_credential())
                AND (SELECT n8v_scopes()) @> ARRAY['chats:release']
                AND EXISTS (SELECT 1 FROM journal_loops l
                             WHERE l.account_id = journal_releases.account_id
                               AND l.loop_id = journal_releases.loop_id));

CREATE POLICY journal_loops_person_delete ON journal_loops FOR DELETE
    USING (account_id = (SELECT n8v_account())
           AND (SELECT n8v_scopes()) @> ARRAY['chats:release']
           AND EXISTS (SELECT 1 FROM journal_sessions s
                        WHERE s.account_id = journal_loops.account_id
                          AND s.session_id = journal_loops.session_id));
