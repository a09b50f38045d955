-- Session summaries, worker access, and the quiet sweep.

-- Work the service does for an account without a credential (the quiet sweep, summaries).
-- Still bound to one account: every service policy also requires account_id = app.account_id.
CREATE FUNCTION n8v_service() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT COALESCE(current_setting('app.service', true), '') = 'on' $$;

ALTER TABLE journal_sessions
    ADD COLUMN summary               jsonb,
    ADD COLUMN summary_model         text,
    ADD COLUMN summary_cost_usd      numeric(14, 8),
    ADD COLUMN summary_input_tokens  bigint,
    ADD COLUMN summary_output_tokens bigint,
    ADD COLUMN summary_note          text,
    -- the snapshot (call count at close) the stored summary describes
    ADD COLUMN summary_snapshot      integer;

CREATE POLICY journal_sessions_service ON journal_sessions FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));
CREATE POLICY journal_calls_service ON journal_calls FOR SELECT
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));

-- One row per summarised snapshot: the primary key makes a job that runs twice, or two workers
-- that race, store one summary. It is also the ledger the monthly budget is summed from.
CREATE TABLE session_summaries (
    account_id     uuid           NOT NULL,
    session_id     uuid           NOT NULL,
    snapshot       integer        NOT NULL,
    summary        jsonb          NOT NULL,
    model          text           NOT NULL,
    input_tokens   bigint         NOT NULL,
    output_tokens  bigint         NOT NULL,
    cost_usd       numeric(14, 8) NOT NULL,
    note           text,
    created_at     timestamptz    NOT NULL,
    PRIMARY KEY (account_id, session_id, snapshot),
    FOREIGN KEY (account_id, session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE CASCADE
);
CREATE INDEX session_summaries_by_month ON session_summaries (account_id, created_at);
ALTER TABLE session_summaries ENABLE ROW LEVEL SECURITY;
ALTER TABLE session_summaries FORCE ROW LEVEL SECURITY;
CREATE POLICY session_summaries_visible ON session_summaries FOR SELECT
    USING (EXISTS (SELECT 1 FROM journal_sessions s
                    WHERE s.account_id = session_summaries.account_id
                      AND s.session_id = session_summaries.session_id));
CREATE POLICY session_summaries_service ON session_summaries FOR ALL
    USING ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()))
    WITH CHECK ((SELECT n8v_service()) AND account_id = (SELECT n8v_account()));

-- The quiet sweep finds open sessions across accounts before it knows any tenant. Only the
-- owner (which owns this SECURITY DEFINER function) reads across accounts, and only ids leave.
CREATE POLICY journal_sessions_owner_sweep ON journal_sessions FOR SELECT TO CURRENT_USER USING (true);

CREATE FUNCTION n8v_quiet_sessions(p_cutoff timestamptz, p_limit integer)
RETURNS TABLE (account_id uuid, session_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT s.account_id, s.session_id FROM journal_sessions s
     WHERE s.ended_at IS NULL AND s.last_activity_at < p_cutoff
     ORDER BY s.last_activity_at
     LIMIT p_limit
$$;
REVOKE ALL ON FUNCTION n8v_quiet_sessions(timestamptz, integer) FROM PUBLIC;
CREATE INDEX journal_sessions_quiet ON journal_sessions (last_activity_at) WHERE ended_at IS NULL;
