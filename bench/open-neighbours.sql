-- :busy's and :tiny's generated sessions open (again), their counts and purposes folded as the
-- appends leave them: up to 30 s before the last move of their stored last activity (migrations
-- 0015 and 0016). Run by bench/generate-neighbours.sql, and by bench/run to reopen them after
-- measuring them ended, so that each state is measured first once.
UPDATE journal_sessions s
   SET ended_at = NULL, end_reason = NULL,
       (counted_calls, counted_writes, counted_through) = (
       SELECT count(*), count(*) FILTER (WHERE c.wrote), s.last_activity_at - interval '30 seconds'
         FROM journal_calls c
        WHERE c.account_id = s.account_id AND c.session_id = s.session_id
          AND c.created_at <= s.last_activity_at - interval '30 seconds')
 WHERE s.assistant = 'bench' AND s.account_id IN (:'busy', :'tiny');

\ir fold-purposes.sql
