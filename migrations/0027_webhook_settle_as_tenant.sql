-- Deliveries settled as tenant work (issue 43). The delivery worker records an attempt, and
-- disables an endpoint after a run of failures, in a tenant transaction acting for the
-- endpoint's account (the service's own work), so that the `endpoint.disabled` event is written
-- through the same door as every other event, and no statement sets the tenant by hand. The
-- application role may now update the acting account's deliveries (their outcome); claiming
-- them, across accounts and with the secrets, stays the owner's work (0023).
CREATE POLICY webhook_deliveries_settle ON webhook_deliveries FOR UPDATE
    USING (account_id = (SELECT n8v_account()))
    WITH CHECK (account_id = (SELECT n8v_account()));
