-- Scrubbed-secret warnings (issue 24, part 3).
--
-- When the scrubber removes a credential from a purpose, a goal, an outcome, a hand-off item or
-- a target id, the journal keeps an exposure: which rule found it, a fingerprint, and where and
-- when it was seen, so the account can be told to rotate it. Never the credential nor any part
-- of it: the fingerprint is HMAC-SHA256 under a key of the account's own, computed by the
-- service (`journal::exposures`), so the text never reaches the database, and equal credentials
-- in two accounts have unrelated fingerprints.

-- The server secret the per-account keys derive from when N8V_FINGERPRINT_SECRET is not set:
-- made here, once, at random, and the same for every replica and restart. Not tenant data:
-- nothing is granted on it, and the application role reads only its own account's key, through
-- n8v_exposure_key().
CREATE TABLE exposure_secret (
    only_row  boolean     NOT NULL DEFAULT true PRIMARY KEY CHECK (only_row),
    secret    bytea       NOT NULL CHECK (length(secret) = 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO exposure_secret (secret)
VALUES (uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()));

-- The acting account's fingerprint key: SHA-256 of the server secret and the account id (as
-- the service derives it from N8V_FINGERPRINT_SECRET). NULL with no tenant set.
CREATE FUNCTION n8v_exposure_key() RETURNS bytea
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT sha256(secret || uuid_send(n8v_account())) FROM exposure_secret
$$;
REVOKE ALL ON FUNCTION n8v_exposure_key() FROM PUBLIC;

-- One row per credential and account: the rule that first named it and its fingerprint. What
-- it says of sessions is in its sightings.
CREATE TABLE journal_exposures (
    account_id       uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    exposure_id      uuid        NOT NULL,
    rule             text        NOT NULL CHECK (length(rule) BETWEEN 1 AND 100),
    fingerprint      bytea       NOT NULL CHECK (length(fingerprint) = 32),
    created_at       timestamptz NOT NULL,
    acknowledged_at  timestamptz,
    PRIMARY KEY (account_id, exposure_id)
);
CREATE UNIQUE INDEX journal_exposures_one_per_credential
    ON journal_exposures (account_id, fingerprint);
ALTER TABLE journal_exposures ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_exposures FORCE ROW LEVEL SECURITY;
-- The account's own. Which of them a credential is shown is decided by their sightings: an
-- exposure is read through the sightings the credential may see (below), and acknowledged only
-- when it has one. The row itself holds no session, text or time of use.
CREATE POLICY journal_exposures_own ON journal_exposures
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

-- Where a credential was scrubbed: one row per session and kind of text, counting the texts
-- (a text holding it twice counts once) and when the first and the last was seen. A purpose
-- repeating a key on every call adds to its row's count, never a row. A sighting goes with its
-- session, and an exposure with its last sighting.
CREATE TABLE journal_exposure_sightings (
    account_id   uuid        NOT NULL,
    exposure_id  uuid        NOT NULL,
    session_id   uuid        NOT NULL,
    field        text        NOT NULL
                             CHECK (field IN ('purpose', 'goal', 'outcome', 'handoff', 'target')),
    count        integer     NOT NULL CHECK (count > 0),
    first_seen   timestamptz NOT NULL,
    last_seen    timestamptz NOT NULL,
    PRIMARY KEY (account_id, exposure_id, session_id, field),
    FOREIGN KEY (account_id, exposure_id)
        REFERENCES journal_exposures (account_id, exposure_id) ON DELETE CASCADE,
    FOREIGN KEY (account_id, session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE CASCADE
);
CREATE INDEX journal_exposure_sightings_by_session
    ON journal_exposure_sightings (account_id, session_id);
ALTER TABLE journal_exposure_sightings ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_exposure_sightings FORCE ROW LEVEL SECURITY;
-- A sighting is visible when its session is (journal_sessions' own policy applies inside: the
-- recorded scopes, a repository-restricted credential's own sessions only), and only to its own
-- account: an organization's owner reads its members' organization sessions, never their
-- exposures (the credential is the member's to rotate).
CREATE POLICY journal_exposure_sightings_visible ON journal_exposure_sightings FOR SELECT
    USING (account_id = (SELECT n8v_account())
           AND EXISTS (SELECT 1 FROM journal_sessions s
                        WHERE s.account_id = journal_exposure_sightings.account_id
                          AND s.session_id = journal_exposure_sightings.session_id));
-- Recorded only in a session of the calling credential (the session its call is recorded in).
CREATE POLICY journal_exposure_sightings_insert ON journal_exposure_sightings FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account())
                AND EXISTS (SELECT 1 FROM journal_sessions s
                             WHERE s.account_id = journal_exposure_sightings.account_id
                               AND s.session_id = journal_exposure_sightings.session_id
                               AND s.credential_id = (SELECT n8v_credential())));
-- Counted again (the insert's ON CONFLICT DO UPDATE) on the same terms.
CREATE POLICY journal_exposure_sightings_count ON journal_exposure_sightings FOR UPDATE
    USING (account_id = (SELECT n8v_account())
           AND EXISTS (SELECT 1 FROM journal_sessions s
                        WHERE s.account_id = journal_exposure_sightings.account_id
                          AND s.session_id = journal_exposure_sightings.session_id
                          AND s.credential_id = (SELECT n8v_credential())))
    WITH CHECK (account_id = (SELECT n8v_account()));

-- An exposure no sighting is left of goes: its sessions were deleted (on purpose, by retention,
-- or with the account), and it may not outlive what it says about them. The sightings go by
-- their foreign key; this trigger, as the owner, takes the exposures they leave empty. It locks
-- the exposures first (in id order) and decides in a statement of its own, which under READ
-- COMMITTED sees what was committed while it waited: two transactions deleting the last two
-- sessions of one exposure decide one after the other (the second takes it), and a sighting
-- recorded meanwhile (its upsert of the exposure locks the row too: journal::exposures::record)
-- is seen rather than deleted with it.
CREATE FUNCTION n8v_forget_unseen_exposures() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM journal_exposures e
      WHERE (e.account_id, e.exposure_id)
            IN (SELECT g.account_id, g.exposure_id FROM n8v_gone_sightings g)
      ORDER BY e.account_id, e.exposure_id
        FOR UPDATE;
    DELETE FROM journal_exposures e
     USING (SELECT DISTINCT g.account_id, g.exposure_id FROM n8v_gone_sightings g) gone
     WHERE e.account_id = gone.account_id AND e.exposure_id = gone.exposure_id
       AND NOT EXISTS (SELECT 1 FROM journal_exposure_sightings s
                        WHERE s.account_id = e.account_id AND s.exposure_id = e.exposure_id);
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION n8v_forget_unseen_exposures() FROM PUBLIC;

CREATE TRIGGER journal_exposure_sightings_forget AFTER DELETE ON journal_exposure_sightings
    REFERENCING OLD TABLE AS n8v_gone_sightings
    FOR EACH STATEMENT EXECUTE FUNCTION n8v_forget_unseen_exposures();

-- The trigger runs as the owner, under FORCE ROW LEVEL SECURITY: these let the owner (never the
-- application role) find the sightings left and delete the exposures they no longer hold up,
-- of the acting account only.
CREATE POLICY journal_exposure_sightings_owner_find ON journal_exposure_sightings FOR SELECT
    TO CURRENT_USER USING (account_id = (SELECT n8v_account()));
CREATE POLICY journal_exposures_owner_forget ON journal_exposures FOR DELETE
    TO CURRENT_USER USING (account_id = (SELECT n8v_account()));
CREATE POLICY journal_exposures_owner_find ON journal_exposures FOR SELECT
    TO CURRENT_USER USING (account_id = (SELECT n8v_account()));
