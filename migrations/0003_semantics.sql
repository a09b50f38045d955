-- The journal's semantics as the product text states them: hand-offs stay visible, a call on an
-- organization's Record is that organization's activity, summaries are claimed before any model
-- is paid, and the monthly budget is reserved per model call.

-- Hand-offs: a session stays out of the list only while every call in it read the journal. Opening
-- and closing a session are not reads, so a session opened with a goal and closed with an outcome
-- shows, even with no other call. Recompute the flag for the sessions recorded so far (the owner
-- lifts FORCE for the one statement; RLS is back before the transaction commits).
ALTER TABLE journal_sessions NO FORCE ROW LEVEL SECURITY;
UPDATE journal_sessions s SET journal_only = NOT EXISTS (
    SELECT 1 FROM journal_calls c
     WHERE c.account_id = s.account_id AND c.session_id = s.session_id AND NOT c.journal_read);
ALTER TABLE journal_sessions FORCE ROW LEVEL SECURITY;

-- Organization activity: the organization whose Record a call acted on. Its owner reads such
-- calls with orgs:read whichever session they were made in (an implicit one included), and only
-- those calls: the member's other work in the same session stays the member's.
ALTER TABLE journal_calls ADD COLUMN organization_id uuid;
-- For organization activity only: the scopes of the credential that made the call. As for
-- sessions, a reader must hold all of them.
ALTER TABLE journal_calls ADD COLUMN scopes text[];
CREATE INDEX journal_calls_by_org ON journal_calls (organization_id, created_at DESC)
    WHERE organization_id IS NOT NULL;
CREATE POLICY journal_calls_org_activity ON journal_calls FOR SELECT
    USING (organization_id IS NOT NULL
           AND scopes <@ (SELECT n8v_scopes())
           AND (SELECT n8v_repository()) IS NULL
           AND (SELECT n8v_scopes()) @> ARRAY['orgs:read']
           AND organization_id IN (SELECT o.organization_id FROM organizations o
                                    WHERE o.account_id = (SELECT n8v_account())));

-- The monthly summary budget, reserved per model call: a job reserves the most a call can cost
-- before making it (refused when the reservations and the spending would pass the budget), then
-- settles it to the real cost. Concurrent jobs share the row, so together they cannot overspend.
-- A job killed between the two leaves its reservation standing: the budget errs on the side of
-- spending less.
CREATE TABLE summary_budget (
    account_id    uuid           NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    month         date           NOT NULL,
    reserved_usd  numeric(14, 8) NOT NULL DEFAULT 0 CHECK (reserved_usd >= 0),
    spent_usd     numeric(14, 8) NOT NULL DEFAULT 0 CHECK (spent_usd >= 0),
    model_calls   integer        NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, month)
);
ALTER TABLE summary_budget ENABLE ROW LEVEL SECURITY;
ALTER TABLE summary_budget FORCE ROW LEVEL SECURITY;
-- An account may read its own ledger (what its summaries cost this month); only the service
-- writes it.
CREATE POLICY summary_budget_own ON summary_budget FOR SELECT
    USING (account_id = (SELECT n8v_account()));
CREATE POLICY summary_budget_service ON summary_budget FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
