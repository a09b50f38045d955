-- What one reader does to what others wrote stays in that reader's view (issue 34).
--
-- 1. Dismissing a member's item. An organization's owner reads its members' organization items
--    (0018) but does not close them; it may dismiss one from its own view instead. A dismissal
--    is the reader account's row: it hides the item from that account's list, brief,
--    `/journal.md`, page and export (journal::loops), and the member's item itself is untouched.
--    Not a foreign key to the item: the item is another account's row (and a key across accounts
--    would not survive distributing by account_id); a dismissal left by an item that went holds
--    two ids and nothing else, and goes with the reader's account.

CREATE TABLE journal_loop_dismissals (
    account_id       uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    loop_account_id  uuid        NOT NULL,
    loop_id          uuid        NOT NULL,
    dismissed_at     timestamptz NOT NULL,
    PRIMARY KEY (account_id, loop_account_id, loop_id),
    CHECK (loop_account_id <> account_id)
);
ALTER TABLE journal_loop_dismissals ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_loop_dismissals FORCE ROW LEVEL SECURITY;
CREATE POLICY journal_loop_dismissals_own ON journal_loop_dismissals FOR SELECT
    USING (account_id = (SELECT n8v_account()));
-- Only of an item of another account that the caller reads (journal_loops' policies apply
-- inside the subquery: an organization's owner, with the organization read permission).
CREATE POLICY journal_loop_dismissals_insert ON journal_loop_dismissals FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account())
                AND EXISTS (SELECT 1 FROM journal_loops l
                             WHERE l.account_id = journal_loop_dismissals.loop_account_id
                               AND l.loop_id = journal_loop_dismissals.loop_id));

-- 2. Acknowledging an exposure is the acknowledging credential's say over the sightings it
--    reads, not over the account's exposure: acknowledged_at moves from the exposure to each
--    sighting, so a repository-restricted key acknowledging the credential it put in its own
--    purpose silences its own sightings and never the account's other keys' warning, nor learns
--    that another key acknowledged it (journal::exposures reads it over the readable sightings).
ALTER TABLE journal_exposure_sightings ADD COLUMN acknowledged_at timestamptz;
ALTER TABLE journal_exposure_sightings NO FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_exposures NO FORCE ROW LEVEL SECURITY;
UPDATE journal_exposure_sightings s SET acknowledged_at = e.acknowledged_at
  FROM journal_exposures e
 WHERE e.account_id = s.account_id AND e.exposure_id = s.exposure_id
   AND e.acknowledged_at IS NOT NULL;
ALTER TABLE journal_exposure_sightings FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_exposures FORCE ROW LEVEL SECURITY;
ALTER TABLE journal_exposures DROP COLUMN acknowledged_at;
-- Acknowledged by any credential of the account that reads the sighting's session (as the
-- visible policy), on top of the count policy (its own sessions only).
CREATE POLICY journal_exposure_sightings_acknowledge ON journal_exposure_sightings FOR UPDATE
    USING (account_id = (SELECT n8v_account())
           AND EXISTS (SELECT 1 FROM journal_sessions s
                        WHERE s.account_id = journal_exposure_sightings.account_id
                          AND s.session_id = journal_exposure_sightings.session_id))
    WITH CHECK (account_id = (SELECT n8v_account()));
