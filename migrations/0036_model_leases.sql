-- Work that pays a model is claimed with a lease committed before the first call, never with a
-- transaction held across it (issue 52): `subject` names the work (`summary:<session>:<snapshot>`,
-- `digest:<period>:<start>`), `holder` the run that holds it until `lease_until`. A run that
-- dies leaves its lease to expire; the next claim after that takes it over (`claims` counts
-- them, so the last one writes code's result instead). The counters tie the month's ledger to
-- the work: calls reserved, calls settled, calls that timed out (settled at their reservation),
-- and what they cost.
CREATE TABLE model_leases (
    account_id      uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    subject         text        NOT NULL,
    holder          uuid        NOT NULL,
    lease_until     timestamptz NOT NULL,
    claims          integer     NOT NULL DEFAULT 1,
    calls_reserved  integer     NOT NULL DEFAULT 0,
    calls_settled   integer     NOT NULL DEFAULT 0,
    calls_timed_out integer     NOT NULL DEFAULT 0,
    -- what settled calls cost, and the reservations of calls not settled (yet, or ever)
    settled_usd     numeric(14, 8) NOT NULL DEFAULT 0,
    outstanding_usd numeric(14, 8) NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, subject)
);
ALTER TABLE model_leases ENABLE ROW LEVEL SECURITY;
ALTER TABLE model_leases FORCE ROW LEVEL SECURITY;
-- An account may read its own leases (what its summaries and digests are waiting on), as it
-- reads its ledger; only the service writes them.
CREATE POLICY model_leases_own ON model_leases FOR SELECT
    USING (account_id = (SELECT n8v_account()));
CREATE POLICY model_leases_service ON model_leases FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));

-- A long session's parts, each stored as its model calls answer, so a retry resumes where the
-- last run stopped and never pays twice for a part it has. Gone with the stored summary.
CREATE TABLE summary_parts (
    account_id    uuid           NOT NULL,
    session_id    uuid           NOT NULL,
    snapshot      integer        NOT NULL,
    part          integer        NOT NULL,
    summary       jsonb          NOT NULL,
    input_tokens  bigint         NOT NULL,
    output_tokens bigint         NOT NULL,
    cost_usd      numeric(14, 8) NOT NULL,
    PRIMARY KEY (account_id, session_id, snapshot, part),
    FOREIGN KEY (account_id, session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE CASCADE
);
ALTER TABLE summary_parts ENABLE ROW LEVEL SECURITY;
ALTER TABLE summary_parts FORCE ROW LEVEL SECURITY;
CREATE POLICY summary_parts_own ON summary_parts FOR SELECT
    USING (account_id = (SELECT n8v_account()));
CREATE POLICY summary_parts_service ON summary_parts FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
