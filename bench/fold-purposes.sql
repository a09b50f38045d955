-- The purposes of :busy's and :tiny's sessions folded as the service folds them (migration
-- 0016): those of the calls up to each session's counted_through, newest first. Run after the
-- counts are folded (bench/generate-neighbours.sql, and again when bench/run ends the sessions).
UPDATE journal_sessions s
   SET (folded_purposes, folded_marked) = (
       SELECT n8v_recent_purposes(a.newest, '{}'), n8v_marked_purposes(a.newest, '{}')
         FROM (SELECT coalesce(array_agg(c.purpose ORDER BY c.created_at DESC, c.call_id DESC)
                                   FILTER (WHERE c.purpose IS NOT NULL), '{}') AS newest
                 FROM journal_calls c
                WHERE c.account_id = s.account_id AND c.session_id = s.session_id
                  AND c.created_at <= s.counted_through) a)
 WHERE s.account_id IN (:'busy', :'tiny') AND s.summary IS NULL;
