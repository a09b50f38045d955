-- What one reader does to what others wrote stays in that reader's view (issue 34).
--
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
