-- Webhooks (issue 36): the journal tells an account's own systems when something happened.
--
--  * webhook_endpoints: an account's receivers (`whk_…`): a URL, the events it wants, and the
--    reach of the credential that made it (its scopes, whether it was repository-restricted):
--    an endpoint is told of a session only when that credential could have read it.
--  * webhook_secrets: the signing secrets. The application role holds no grant on them at all:
--    it adds one through n8v_webhook_add_secret(), for its own account's endpoint only, and
--    never reads one back (a secret is shown once, when made). The workers sign on the owner's
--    connection. So no tenant transaction reads any secret, another account's least of all.
--  * webhook_events: the outbox. An event is written by n8v_webhook_emit() in the same
--    transaction as what caused it, with one delivery per endpoint that may hear of it.
--  * webhook_deliveries: one event to one endpoint: attempts, status, the last response code
--    and a short scrubbed excerpt, the next try. Listed by the endpoint's account.

CREATE TABLE webhook_endpoints (
    account_id            uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    endpoint_id           uuid        NOT NULL,
    url                   text        NOT NULL CHECK (length(url) BETWEEN 1 AND 2000),
    events                text[]      NOT NULL CHECK (cardinality(events) >= 1),
    description           text        CHECK (length(description) <= 500),
    -- The making credential's reach (see above), copied: tenant work cannot read credentials.
    credential_id         uuid        NOT NULL,
    scopes                text[]      NOT NULL,
    repository_restricted boolean     NOT NULL,
    enabled               boolean     NOT NULL DEFAULT true,
    disabled_at           timestamptz,
    -- Failed attempts in a row (any delivery); reset by a success. At the limit it is disabled.
    failures              integer     NOT NULL DEFAULT 0,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL,
    PRIMARY KEY (account_id, endpoint_id)
);
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_endpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY webhook_endpoints_own ON webhook_endpoints
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));

CREATE TABLE webhook_secrets (
    account_id   uuid        NOT NULL,
    endpoint_id  uuid        NOT NULL,
    secret_id    uuid        NOT NULL,
    -- `whsec_<base64>`, as Standard Webhooks writes it.
    secret       text        NOT NULL CHECK (secret LIKE 'whsec\_%'),
    created_at   timestamptz NOT NULL,
    -- Set when a newer secret replaced it: it keeps signing beside the new one until then.
    expires_at   timestamptz,
    PRIMARY KEY (account_id, endpoint_id, secret_id),
    FOREIGN KEY (account_id, endpoint_id)
        REFERENCES webhook_endpoints (account_id, endpoint_id) ON DELETE CASCADE
);
ALTER TABLE webhook_secrets ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_secrets FORCE ROW LEVEL SECURITY;

CREATE TABLE webhook_events (
    account_id   uuid        NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    event_id     uuid        NOT NULL,
    type         text        NOT NULL CHECK (length(type) BETWEEN 1 AND 100),
    -- The whole body sent: {"type", "timestamp", "data"}.
    payload      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (account_id, event_id)
);
ALTER TABLE webhook_events ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_events FORCE ROW LEVEL SECURITY;

CREATE TABLE webhook_deliveries (
    -- The endpoint's account (who lists it); the event may be another's (an organization's
    -- session heard by the organization's owner).
    account_id        uuid        NOT NULL,
    delivery_id       uuid        NOT NULL,
    endpoint_id       uuid        NOT NULL,
    event_account_id  uuid        NOT NULL,
    event_id          uuid        NOT NULL,
    event_type        text        NOT NULL,
    status            text        NOT NULL DEFAULT 'pending'
                                  CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts          integer     NOT NULL DEFAULT 0,
    next_attempt_at   timestamptz NOT NULL,
    -- A worker's claim while it delivers: another worker takes it only once this has passed
    -- (so a worker killed mid-delivery leaves it to the next).
    leased_until      timestamptz,
    last_attempt_at   timestamptz,
    last_status       integer,
    -- At most 200 characters of the receiver's answer or of the failure, scrubbed.
    last_excerpt      text        CHECK (length(last_excerpt) <= 200),
    delivered_at      timestamptz,
    created_at        timestamptz NOT NULL,
    PRIMARY KEY (account_id, delivery_id),
    FOREIGN KEY (account_id, endpoint_id)
        REFERENCES webhook_endpoints (account_id, endpoint_id) ON DELETE CASCADE,
    FOREIGN KEY (event_account_id, event_id)
        REFERENCES webhook_events (account_id, event_id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
    WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint
    ON webhook_deliveries (account_id, endpoint_id, created_at DESC, delivery_id DESC);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_account_id, event_id);
CREATE INDEX webhook_events_by_time ON webhook_events (created_at);
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
CREATE POLICY webhook_deliveries_own ON webhook_deliveries FOR SELECT
    USING (account_id = (SELECT n8v_account()));

-- The owner's work across accounts (the delivery workers, and the functions below), named for
-- the role that owns the tables (as 0005 does): never the application role.
DO $$
DECLARE
    t text;
    owner text;
BEGIN
    FOREACH t IN ARRAY ARRAY['webhook_endpoints', 'webhook_secrets', 'webhook_events',
                             'webhook_deliveries'] LOOP
        owner := (SELECT r.rolname FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner
                   WHERE c.oid = format('public.%I', t)::regclass);
        EXECUTE format('CREATE POLICY %I ON %I FOR ALL TO %I USING (true) WITH CHECK (true)',
                       t || '_owner_work', t, owner);
    END LOOP;
END $$;

-- A UUIDv7 (internal ids are time-ordered), for the rows made in SQL below.
CREATE FUNCTION n8v_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint)
                                    FROM 3)
                  FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
REVOKE ALL ON FUNCTION n8v_uuidv7() FROM PUBLIC;

-- A new signing secret for an endpoint of the acting account: the ones before it keep signing
-- until `p_expires` (the rotation's grace period; NULL when it is the first), and those already
-- past their time go. False when the account has no such endpoint.
CREATE FUNCTION n8v_webhook_add_secret(p_endpoint uuid, p_secret_id uuid, p_secret text,
                                       p_now timestamptz, p_expires timestamptz)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM webhook_endpoints
      WHERE account_id = n8v_account() AND endpoint_id = p_endpoint FOR UPDATE;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    DELETE FROM webhook_secrets
     WHERE account_id = n8v_account() AND endpoint_id = p_endpoint AND expires_at <= p_now;
    UPDATE webhook_secrets SET expires_at = p_expires
     WHERE account_id = n8v_account() AND endpoint_id = p_endpoint
       AND (expires_at IS NULL OR expires_at > p_expires);
    INSERT INTO webhook_secrets (account_id, endpoint_id, secret_id, secret, created_at)
    VALUES (n8v_account(), p_endpoint, p_secret_id, p_secret, p_now);
    RETURN true;
END
$$;
REVOKE ALL ON FUNCTION n8v_webhook_add_secret(uuid, uuid, text, timestamptz, timestamptz)
    FROM PUBLIC;

-- An event of the acting account, in the caller's transaction (the outbox), and its deliveries:
-- to the account's enabled endpoints that want it and whose maker could read what it is about.
-- About a session (`p_session`): the session's recorded scopes within the endpoint's, and a
-- repository-restricted maker's own sessions only; when `p_shared` and the session is an
-- organization's, also the endpoints of the organization's owner made with `orgs:read` (the
-- session policy lets that owner read it). About something else with recorded scopes (a
-- digest: `p_scopes`), those scopes within the endpoint's. No event is kept when nobody
-- listens. Returns how many deliveries it made.
CREATE FUNCTION n8v_webhook_emit(p_event uuid, p_type text, p_payload jsonb, p_session uuid,
                                 p_scopes text[], p_shared boolean, p_now timestamptz)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_account uuid := n8v_account();
    v_org uuid;
    v_scopes text[] := p_scopes;
    v_credential uuid;
    v_owner uuid;
    n integer;
BEGIN
    IF v_account IS NULL THEN
        RAISE EXCEPTION 'n8v_webhook_emit needs an account';
    END IF;
    IF p_session IS NOT NULL THEN
        SELECT s.organization_id, s.scopes, s.credential_id INTO v_org, v_scopes, v_credential
          FROM journal_sessions s
         WHERE s.account_id = v_account AND s.session_id = p_session;
        IF NOT FOUND THEN
            RETURN 0;
        END IF;
        IF p_shared AND v_org IS NOT NULL THEN
            SELECT o.account_id INTO v_owner FROM organizations o WHERE o.organization_id = v_org;
        END IF;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                    WHERE e.enabled AND e.events @> ARRAY[p_type]
                      AND e.account_id IN (v_account, v_owner)) THEN
        RETURN 0;
    END IF;
    INSERT INTO webhook_events (account_id, event_id, type, payload, created_at)
    VALUES (v_account, p_event, p_type, p_payload, p_now);
    INSERT INTO webhook_deliveries (account_id, delivery_id, endpoint_id, event_account_id,
                                    event_id, event_type, next_attempt_at, created_at)
    SELECT e.account_id, n8v_uuidv7(), e.endpoint_id, v_account, p_event, p_type, p_now, p_now
      FROM webhook_endpoints e
     WHERE e.enabled AND e.events @> ARRAY[p_type]
       AND (v_scopes IS NULL OR v_scopes <@ e.scopes)
       AND ((e.account_id = v_account
             AND (p_session IS NULL OR NOT e.repository_restricted
                  OR e.credential_id = v_credential))
            OR (v_owner IS NOT NULL AND v_owner <> v_account AND e.account_id = v_owner
                AND NOT e.repository_restricted AND e.scopes @> ARRAY['orgs:read']));
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 0 THEN
        DELETE FROM webhook_events WHERE account_id = v_account AND event_id = p_event;
    END IF;
    RETURN n;
END
$$;
REVOKE ALL ON FUNCTION n8v_webhook_emit(uuid, text, jsonb, uuid, text[], boolean, timestamptz)
    FROM PUBLIC;

-- A test event (`webhook.test`) for one endpoint of the acting account, whatever it asked for
-- ("send a test event" on the settings page). False when the account has no such endpoint.
CREATE FUNCTION n8v_webhook_test(p_endpoint uuid, p_event uuid, p_payload jsonb,
                                 p_now timestamptz)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM 1 FROM webhook_endpoints
      WHERE account_id = n8v_account() AND endpoint_id = p_endpoint;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    INSERT INTO webhook_events (account_id, event_id, type, payload, created_at)
    VALUES (n8v_account(), p_event, 'webhook.test', p_payload, p_now);
    INSERT INTO webhook_deliveries (account_id, delivery_id, endpoint_id, event_account_id,
                                    event_id, event_type, next_attempt_at, created_at)
    VALUES (n8v_account(), n8v_uuidv7(), p_endpoint, n8v_account(), p_event, 'webhook.test',
            p_now, p_now);
    RETURN true;
END
$$;
REVOKE ALL ON FUNCTION n8v_webhook_test(uuid, uuid, jsonb, timestamptz) FROM PUBLIC;
