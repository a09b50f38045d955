"""Smoke test of the generated Python client against a live server.

    N8V_URL=http://127.0.0.1:8080 N8V_TOKEN=n8v_sk_... python sdk/python/smoke.py

The token's account needs the assistantJournal flag and the scopes chats:read, records:read,
records:write. Opens a session, appends a line to the account's Record with a purpose, reads
the catch-up brief, and checks each step's result; exits non-zero on the first failure.
"""

import os
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "client"))

from n8v_journal_client import AuthenticatedClient  # noqa: E402
from n8v_journal_client.api.journal import get_catch_up, get_session, start_session  # noqa: E402
from n8v_journal_client.api.records import append_record_entry, list_records  # noqa: E402
from n8v_journal_client.models import AppendRequest, CatchUp, Entry, RecordList, Session, SessionDetail, StartRequest  # noqa: E402


def expect(response, status, model):
    if response.status_code != status or not isinstance(response.parsed, model):
        sys.exit(f"expected {status} {model.__name__}, got {response.status_code}: {response.content!r}")
    return response.parsed


def main() -> None:
    client = AuthenticatedClient(base_url=os.environ["N8V_URL"], token=os.environ["N8V_TOKEN"])
    marker = f"python sdk smoke {uuid.uuid4()}"
    purpose = "Check the generated Python client end to end"
    with client as c:
        session = expect(
            start_session.sync_detailed(
                client=c, body=StartRequest(goal=f"Goal of the {marker}"), x_assistant="python-sdk-smoke"
            ),
            201,
            Session,
        )
        assert session.id.startswith("ses_"), session.id
        assert session.status == "open", session.status

        records = expect(list_records.sync_detailed(client=c, x_session_id=session.id), 200, RecordList)
        own = next(r for r in records.records if r.kind == "account")

        entry = expect(
            append_record_entry.sync_detailed(
                own.id, client=c, body=AppendRequest(line=marker), x_purpose=purpose, x_session_id=session.id
            ),
            201,
            Entry,
        )
        assert entry.line == marker, entry.line

        # The call is journalled in the session with its purpose.
        detail = expect(get_session.sync_detailed(session.id, client=c), 200, SessionDetail)
        appended = [a for a in detail.actions if a.operation == "appendRecordEntry"]
        assert appended and appended[0].purpose == purpose, [a.to_dict() for a in detail.actions]

        brief = expect(get_catch_up.sync_detailed(client=c, since=session.id), 200, CatchUp)
        lines = [line for change in brief.records for line in change.newest_lines]
        assert marker in lines, brief.to_dict()
    print(f"python sdk smoke: ok (session {session.id})")


if __name__ == "__main__":
    main()
