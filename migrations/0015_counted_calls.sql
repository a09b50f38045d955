-- Reads that cost only the caller's own work (issue 25, goal 2).
--
-- A session's call and write counts were derived from its calls on every read: a list of ten
-- sessions of 10,000 calls counted 200,000 rows (80 ms ended, 144 ms open, against 4.5 ms for
-- ten sessions of one call). A counter moved by every call would make the session's row hot,
-- which the write path avoids on purpose (0010). So the counts are folded instead, a minute at
-- a time, by statements that update the session's row anyway:
--
-- * counted_calls and counted_writes hold the session's calls made at or before
--   counted_through ('-infinity': none folded yet; never NULL, so that the reads' bound on the
--   calls' index stays a plain comparison, which row-level security lets be an index condition);
-- * the append folds when it moves the stored last activity (at most once a minute per
--   session, see 0010), and every close folds (end, quiet, retired);
-- * they fold only calls older than the fold's own time less COUNT_LAG (30 s, the default
--   request timeout), so a call still being committed is never passed over;
-- * reads add the calls made after counted_through: at most the last minute and a half of an
--   open session, and only the end call (and the last 30 s) of a closed one.
--
-- So the counts stay exact (a call whose transaction outlives 30 s, which the request timeout
-- rules out, would be the exception), and a read costs what the page shows, not the history.
ALTER TABLE journal_sessions
    ADD COLUMN counted_calls   integer NOT NULL DEFAULT 0,
    ADD COLUMN counted_writes  integer NOT NULL DEFAULT 0,
    ADD COLUMN counted_through timestamptz NOT NULL DEFAULT '-infinity';

-- The calls of one of the caller's sessions made in (p_from, p_through]: its own account's,
-- and for a credential its own calls only (a session holds only its credential's calls), for
-- the service (the quiet sweep's close) any of the account's. An owner's plpgsql function so
-- that the append's statement carries no policy subplan over calls (0012).
CREATE FUNCTION n8v_own_call_counts(p_session uuid, p_from timestamptz, p_through timestamptz,
                                    OUT calls integer, OUT writes integer)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    SELECT count(*), count(*) FILTER (WHERE c.wrote) INTO calls, writes
      FROM journal_calls c
     WHERE c.account_id = n8v_account() AND c.session_id = p_session
       AND (n8v_service() OR c.credential_id = n8v_credential())
       AND c.created_at > p_from AND c.created_at <= p_through;
END $$;
REVOKE ALL ON FUNCTION n8v_own_call_counts(uuid, timestamptz, timestamptz) FROM PUBLIC;

-- Sessions closed before this migration: folded now, up to 30 s before their close (one
-- statement, so a migrator the policies kept from either table changes nothing).
UPDATE journal_sessions s
   SET (counted_calls, counted_writes, counted_through) = (
       SELECT count(*), count(*) FILTER (WHERE c.wrote), s.ended_at - interval '30 seconds'
         FROM journal_calls c
        WHERE c.account_id = s.account_id AND c.session_id = s.session_id
          AND c.created_at <= s.ended_at - interval '30 seconds')
 WHERE s.ended_at IS NOT NULL;
