-- Foundation schema: accounts, organizations, credentials, feature flags, the journal,
-- the audit log and Records.
--
-- Tenancy rules (see DESIGN.md §3):
--  * every tenant table has account_id first in its primary key (Citus-ready);
--  * row-level security is ENABLEd and FORCEd on every tenant table;
--  * policies read per-transaction settings through the n8v_* functions below, wrapped in
--    (SELECT …) so Postgres evaluates them once per statement (an InitPlan), not per row;
--  * a missing setting yields NULL, and NULL matches nothing: a forgotten tenant sees nothing.

CREATE FUNCTION n8v_account() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT NULLIF(current_setting('app.account_id', true), '')::uuid $$;

CREATE FUNCTION n8v_credential() RETURNS uuid LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT NULLIF(current_setting('app.credential_id', true), '')::uuid $$;

-- The scopes the calling credential holds; NULL when unset (and NULL <@ / ANY match nothing).
CREATE FUNCTION n8v_scopes() RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT string_to_array(NULLIF(current_setting('app.scopes', true), ''), ',') $$;

-- The repository a restricted credential is bound to; NULL for unrestricted credentials.
CREATE FUNCTION n8v_repository() RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS
$$ SELECT NULLIF(current_setting('app.repository', true), '') $$;

-- Accounts ------------------------------------------------------------------------------------

CREATE TABLE accounts (
    account_id  uuid        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    kind        text        NOT NULL CHECK (kind IN ('customer', 'internal')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id)
);
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
ALTER TABLE accounts FORCE ROW LEVEL SECURITY;
CREATE POLICY accounts_own ON accounts
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

-- Organizations: account_id is the owner. Members are rows keyed by the member's account.

CREATE TABLE organizations (
    account_id       uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    organization_id  uuid        NOT NULL,
    name             text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, organization_id)
);
CREATE INDEX organizations_by_id ON organizations (organization_id);

CREATE TABLE organization_members (
    account_id        uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    organization_id   uuid        NOT NULL,
    owner_account_id  uuid        NOT NULL,
    can_read          boolean     NOT NULL DEFAULT false,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, organization_id),
    FOREIGN KEY (owner_account_id, organization_id)
        REFERENCES organizations (account_id, organization_id) ON DELETE CASCADE
);
CREATE INDEX organization_members_by_org ON organization_members (organization_id);

ALTER TABLE organization_members ENABLE ROW LEVEL SECURITY;
ALTER TABLE organization_members FORCE ROW LEVEL SECURITY;
CREATE POLICY organization_members_own ON organization_members
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

ALTER TABLE organizations ENABLE ROW LEVEL SECURITY;
ALTER TABLE organizations FORCE ROW LEVEL SECURITY;
-- The owner sees its organizations; a member sees the organizations it belongs to (the
-- membership subquery is itself under organization_members' policy).
CREATE POLICY organizations_visible ON organizations FOR SELECT
    USING (account_id = (SELECT n8v_account())
           OR organization_id IN (SELECT m.organization_id FROM organization_members m));
CREATE POLICY organizations_owner_writes ON organizations FOR ALL
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));
-- `admin add-member` finds an organization's owner before it knows any tenant; only the
-- migration owner (the admin connection) may, never the app role.
CREATE POLICY organizations_owner_lookup ON organizations FOR SELECT TO CURRENT_USER USING (true);

-- Credentials ---------------------------------------------------------------------------------

CREATE TABLE credentials (
    account_id       uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    credential_id    uuid        NOT NULL,
    name             text        NOT NULL DEFAULT '',
    token_hash       bytea       NOT NULL,
    scopes           text[]      NOT NULL,
    repository       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    revoked_at       timestamptz,
    PRIMARY KEY (account_id, credential_id)
);
-- Not UNIQUE (a distributed table's unique index must hold the distribution column);
-- 256 random bits make collisions a non-question.
CREATE INDEX credentials_by_hash ON credentials (token_hash);
CREATE INDEX credentials_by_id ON credentials (credential_id);
ALTER TABLE credentials ENABLE ROW LEVEL SECURITY;
ALTER TABLE credentials FORCE ROW LEVEL SECURITY;
CREATE POLICY credentials_own ON credentials
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));
-- Authentication happens before the tenant is known. Only the migration owner (which owns the
-- SECURITY DEFINER lookup functions below) may read across accounts, never the app role.
CREATE POLICY credentials_owner_lookup ON credentials FOR SELECT TO CURRENT_USER USING (true);

-- Operator credentials belong to no account; only the owner reaches them (no grants).
CREATE TABLE operator_credentials (
    credential_id  uuid        NOT NULL PRIMARY KEY,
    name           text        NOT NULL DEFAULT '',
    token_hash     bytea       NOT NULL UNIQUE,
    created_at     timestamptz NOT NULL DEFAULT now(),
    revoked_at     timestamptz
);

CREATE TYPE n8v_credential_row AS (
    account_id     uuid,
    credential_id  uuid,
    scopes         text[],
    repository     text,
    revoked_at     timestamptz,
    operator       boolean
);

CREATE FUNCTION n8v_credential_by_hash(p_hash bytea) RETURNS SETOF n8v_credential_row
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT account_id, credential_id, scopes, repository, revoked_at, false
      FROM credentials WHERE token_hash = p_hash
    UNION ALL
    SELECT NULL, credential_id, ARRAY[]::text[], NULL, revoked_at, true
      FROM operator_credentials WHERE token_hash = p_hash
$$;

CREATE FUNCTION n8v_credential_by_id(p_account uuid, p_credential uuid)
RETURNS SETOF n8v_credential_row
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT account_id, credential_id, scopes, repository, revoked_at, false
      FROM credentials WHERE account_id = p_account AND credential_id = p_credential
$$;
REVOKE ALL ON FUNCTION n8v_credential_by_hash(bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION n8v_credential_by_id(uuid, uuid) FROM PUBLIC;

-- Feature flags -------------------------------------------------------------------------------

CREATE TABLE feature_flags (
    flag        text        NOT NULL PRIMARY KEY,
    enabled     boolean     NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE feature_flag_overrides (
    account_id  uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    flag        text        NOT NULL,
    enabled     boolean     NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, flag)
);
ALTER TABLE feature_flag_overrides ENABLE ROW LEVEL SECURITY;
ALTER TABLE feature_flag_overrides FORCE ROW LEVEL SECURITY;
CREATE POLICY feature_flag_overrides_own ON feature_flag_overrides
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

-- Audit log -----------------------------------------------------------------------------------

CREATE TABLE audit_log (
    account_id     uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    audit_id       uuid        NOT NULL,
    credential_id  uuid,
    request_id     text        NOT NULL,
    method         text        NOT NULL,
    path           text        NOT NULL,
    status         integer     NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, audit_id)
);
CREATE INDEX audit_log_by_time ON audit_log (account_id, created_at);
ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_log FORCE ROW LEVEL SECURITY;
-- A repository-restricted credential reads only its own entries.
CREATE POLICY audit_log_visible ON audit_log FOR SELECT
    USING (account_id = (SELECT n8v_account())
           AND ((SELECT n8v_repository()) IS NULL OR credential_id = (SELECT n8v_credential())));
CREATE POLICY audit_log_insert ON audit_log FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account()));

-- Records: each account has one, each organization has one (owned by the owner's account) -----

CREATE TABLE records (
    account_id       uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    record_id        uuid        NOT NULL,
    organization_id  uuid,
    name             text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, record_id),
    FOREIGN KEY (account_id, organization_id)
        REFERENCES organizations (account_id, organization_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX records_one_per_account ON records (account_id) WHERE organization_id IS NULL;
CREATE UNIQUE INDEX records_one_per_org ON records (account_id, organization_id)
    WHERE organization_id IS NOT NULL;
CREATE INDEX records_by_org ON records (organization_id) WHERE organization_id IS NOT NULL;
CREATE INDEX records_by_id ON records (record_id);
ALTER TABLE records ENABLE ROW LEVEL SECURITY;
ALTER TABLE records FORCE ROW LEVEL SECURITY;
-- Visible: the account's own Records (its own and those of organizations it owns) and the
-- Records of organizations where it is a member with the read permission.
CREATE POLICY records_visible ON records FOR SELECT
    USING (account_id = (SELECT n8v_account())
           OR organization_id IN (SELECT m.organization_id FROM organization_members m
                                   WHERE m.can_read));
CREATE POLICY records_owner_writes ON records FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account()));

CREATE TABLE record_entries (
    account_id         uuid        NOT NULL,
    entry_id           uuid        NOT NULL,
    record_id          uuid        NOT NULL,
    line               text        NOT NULL,
    author_account_id  uuid        NOT NULL,
    credential_id      uuid,
    created_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, entry_id),
    FOREIGN KEY (account_id, record_id) REFERENCES records (account_id, record_id) ON DELETE CASCADE
);
CREATE INDEX record_entries_by_record ON record_entries (account_id, record_id, entry_id DESC);
ALTER TABLE record_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE record_entries FORCE ROW LEVEL SECURITY;
-- An entry is visible and appendable exactly when its Record is visible (records' own policy
-- applies inside the subquery); the author is always the caller.
CREATE POLICY record_entries_visible ON record_entries FOR SELECT
    USING (EXISTS (SELECT 1 FROM records r
                    WHERE r.account_id = record_entries.account_id
                      AND r.record_id = record_entries.record_id));
CREATE POLICY record_entries_append ON record_entries FOR INSERT
    WITH CHECK (author_account_id = (SELECT n8v_account())
                AND EXISTS (SELECT 1 FROM records r
                             WHERE r.account_id = record_entries.account_id
                               AND r.record_id = record_entries.record_id));

-- The journal ---------------------------------------------------------------------------------

CREATE TABLE journal_sessions (
    account_id        uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    session_id        uuid        NOT NULL,
    credential_id     uuid        NOT NULL,
    kind              text        NOT NULL CHECK (kind IN ('explicit', 'implicit')),
    assistant         text        NOT NULL DEFAULT '',
    organization_id   uuid,
    repository        text,
    scopes            text[]      NOT NULL,
    goal              text,
    outcome           text,
    started_at        timestamptz NOT NULL,
    last_activity_at  timestamptz NOT NULL,
    ended_at          timestamptz,
    end_reason        text CHECK (end_reason IN ('ended', 'quiet', 'retired')),
    call_count        integer     NOT NULL DEFAULT 0,
    write_count       integer     NOT NULL DEFAULT 0,
    -- false once the session has done anything but read the journal; the list hides the rest
    journal_only      boolean     NOT NULL DEFAULT true,
    PRIMARY KEY (account_id, session_id)
);
CREATE INDEX journal_sessions_list ON journal_sessions (account_id, started_at DESC, session_id DESC);
CREATE INDEX journal_sessions_open ON journal_sessions (account_id, credential_id, last_activity_at DESC)
    WHERE ended_at IS NULL;
-- One open implicit session per credential and scope set: concurrent first calls share it.
CREATE UNIQUE INDEX journal_sessions_one_open_implicit ON journal_sessions (account_id, credential_id, scopes)
    WHERE kind = 'implicit' AND ended_at IS NULL;
CREATE INDEX journal_sessions_by_id ON journal_sessions (session_id);
CREATE INDEX journal_sessions_by_org ON journal_sessions (organization_id, started_at DESC)
    WHERE organization_id IS NOT NULL;
ALTER TABLE journal_sessions ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_sessions FORCE ROW LEVEL SECURITY;
-- Reading: a credential sees sessions whose recorded scopes it also holds; a repository-
-- restricted credential sees only its own; beyond its account, only the sessions of
-- organizations the account owns, and only with orgs:read.
CREATE POLICY journal_sessions_visible ON journal_sessions FOR SELECT
    USING (scopes <@ (SELECT n8v_scopes())
           AND ((SELECT n8v_repository()) IS NULL OR credential_id = (SELECT n8v_credential()))
           AND (account_id = (SELECT n8v_account())
                OR ((SELECT n8v_scopes()) @> ARRAY['orgs:read']
                    AND organization_id IN (SELECT o.organization_id FROM organizations o
                                             WHERE o.account_id = (SELECT n8v_account())))));
-- Writing: only the credential that owns the session.
CREATE POLICY journal_sessions_insert ON journal_sessions FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account()) AND credential_id = (SELECT n8v_credential()));
CREATE POLICY journal_sessions_update ON journal_sessions FOR UPDATE
    USING (account_id = (SELECT n8v_account()) AND credential_id = (SELECT n8v_credential()))
    WITH CHECK (account_id = (SELECT n8v_account()) AND credential_id = (SELECT n8v_credential()));

CREATE TABLE journal_calls (
    account_id     uuid        NOT NULL,
    call_id        uuid        NOT NULL,
    session_id     uuid        NOT NULL,
    credential_id  uuid        NOT NULL,
    operation      text        NOT NULL,
    purpose        text,
    target_ids     text[]      NOT NULL DEFAULT '{}',
    status         integer     NOT NULL,
    ok             boolean     NOT NULL,
    input_shape    jsonb,
    result_ids     text[]      NOT NULL DEFAULT '{}',
    result_count   integer,
    wrote          boolean     NOT NULL,
    journal_read   boolean     NOT NULL,
    duration_ms    integer     NOT NULL,
    audit_id       uuid,
    created_at     timestamptz NOT NULL,
    PRIMARY KEY (account_id, call_id),
    FOREIGN KEY (account_id, session_id)
        REFERENCES journal_sessions (account_id, session_id) ON DELETE CASCADE
);
CREATE INDEX journal_calls_by_session ON journal_calls (account_id, session_id, created_at DESC, call_id DESC);
CREATE INDEX journal_calls_by_time ON journal_calls (account_id, created_at);
-- Lookups by external id alone (an organization's owner reads sessions of other accounts).
CREATE INDEX journal_calls_by_id ON journal_calls (call_id);
ALTER TABLE journal_calls ENABLE ROW LEVEL SECURITY;
ALTER TABLE journal_calls FORCE ROW LEVEL SECURITY;
-- A call is visible exactly when its session is.
CREATE POLICY journal_calls_visible ON journal_calls FOR SELECT
    USING (EXISTS (SELECT 1 FROM journal_sessions s
                    WHERE s.account_id = journal_calls.account_id
                      AND s.session_id = journal_calls.session_id));
CREATE POLICY journal_calls_insert ON journal_calls FOR INSERT
    WITH CHECK (account_id = (SELECT n8v_account()) AND credential_id = (SELECT n8v_credential()));
