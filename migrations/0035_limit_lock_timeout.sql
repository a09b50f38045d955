-- A lock held on a limit bucket (a stuck transaction, an operator's `SELECT … FOR UPDATE`) must
-- not stall every authenticated request of every account (issue 52, 3h): a take waits at most
-- a quarter of a second for its bucket's row, then fails with `lock_not_available` (55P03),
-- and the replica counts the request against its own lease meanwhile (`auth::limits::lease`).
-- Set on the function, so it holds for every caller without a round trip of its own.
ALTER FUNCTION n8v_limit_take(text, text, integer, integer, integer) SET lock_timeout = '250ms';
