-- An endpoint stops with its maker (issue 44 finding 1). An endpoint hears of what the
-- credential that made it could read (0023); once that credential is revoked, nothing is sent
-- to it any more: a leaked key must not leave a standing channel out of the account that
-- revoking it does not close (as a grant never outlives the key that approved it, 0022).
--
--  * n8v_webhook_emit makes no delivery for an endpoint whose maker is revoked (or gone).
--  * Revoking a credential ends its endpoints' pending deliveries, as failed with the reason
--    (the text is src/webhooks/deliveries.rs's ENDED_MAKER_REVOKED):
--    they were judged against the revoked maker's reach, and are not sent to anyone else's
--    (the delivery workers' claim skips such endpoints too, and the prune ends what is left).
--  * n8v_webhook_maker_live tells tenant work whether an endpoint's maker is live (the
--    listing's `maker_revoked`), for its own account's credentials only: the application role
--    reads no credential.
--  * The endpoint is handed to a live key by tenant work (an UPDATE of its own row, under its
--    policy): the caller's credential, scopes and repository restriction become its maker's.

-- Whether `p_credential` is a live (not revoked) credential of the acting account.
CREATE FUNCTION n8v_webhook_maker_live(p_credential uuid) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT EXISTS (SELECT 1 FROM credentials c
                    WHERE c.account_id = n8v_account() AND c.credential_id = p_credential
                      AND c.revoked_at IS NULL)
$$;
REVOKE ALL ON FUNCTION n8v_webhook_maker_live(uuid) FROM PUBLIC;

-- 0023's emit, with one more condition on each endpoint: its maker is live.
CREATE OR REPLACE FUNCTION n8v_webhook_emit(p_event uuid, p_type text, p_payload jsonb,
                                            p_session uuid, p_scopes text[], p_shared boolean,
                                            p_now timestamptz)
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
                     JOIN credentials m
                       ON m.account_id = e.account_id AND m.credential_id = e.credential_id
                    WHERE e.enabled AND e.events @> ARRAY[p_type] AND m.revoked_at IS NULL
                      AND e.account_id IN (v_account, v_owner)) THEN
        RETURN 0;
    END IF;
    INSERT INTO webhook_events (account_id, event_id, type, payload, created_at)
    VALUES (v_account, p_event, p_type, p_payload, p_now);
    INSERT INTO webhook_deliveries (account_id, delivery_id, endpoint_id, event_account_id,
                                    event_id, event_type, next_attempt_at, created_at)
    SELECT e.account_id, n8v_uuidv7(), e.endpoint_id, v_account, p_event, p_type, p_now, p_now
      FROM webhook_endpoints e
      JOIN credentials m ON m.account_id = e.account_id AND m.credential_id = e.credential_id
     WHERE e.enabled AND e.events @> ARRAY[p_type] AND m.revoked_at IS NULL
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

-- Revoking a credential ends the pending deliveries of the endpoints it made (a worker's lease
-- goes with them, so a send under way records nothing).
CREATE INDEX webhook_endpoints_by_maker ON webhook_endpoints (account_id, credential_id);

CREATE FUNCTION n8v_webhook_end_revoked_makers() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN
        UPDATE webhook_deliveries d SET status = 'failed', leased_until = NULL,
               last_status = NULL, last_excerpt = 'not sent: the key that made the endpoint was revoked'
          FROM webhook_endpoints e
         WHERE e.account_id = NEW.account_id AND e.credential_id = NEW.credential_id
           AND d.account_id = e.account_id AND d.endpoint_id = e.endpoint_id
           AND d.status = 'pending';
    END IF;
    RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION n8v_webhook_end_revoked_makers() FROM PUBLIC;
CREATE TRIGGER credentials_end_webhook_deliveries AFTER UPDATE OF revoked_at ON credentials
    FOR EACH ROW EXECUTE FUNCTION n8v_webhook_end_revoked_makers();

-- The endpoints whose maker was revoked before this migration: their pending deliveries end.
UPDATE webhook_deliveries d SET status = 'failed', leased_until = NULL, last_status = NULL,
       last_excerpt = 'not sent: the key that made the endpoint was revoked'
  FROM webhook_endpoints e
 WHERE d.account_id = e.account_id AND d.endpoint_id = e.endpoint_id AND d.status = 'pending'
   AND NOT EXISTS (SELECT 1 FROM credentials m
                    WHERE m.account_id = e.account_id AND m.credential_id = e.credential_id
                      AND m.revoked_at IS NULL);
