"""Verifies webhook deliveries with the Standard Webhooks reference library, as it is.

Reads one JSON object from stdin: {"secret": "whsec_…", "deliveries": [{"headers": {…},
"body": "…"}, …]} and prints one JSON line per delivery: {"ok": true, "payload": …} when
`Webhook(secret).verify(body, headers)` accepts it, else {"ok": false, "error": "…"}.
"""

import json
import sys

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


def main() -> None:
    job = json.load(sys.stdin)
    hook = Webhook(job["secret"])
    for delivery in job["deliveries"]:
        try:
            payload = hook.verify(delivery["body"], delivery["headers"])
            print(json.dumps({"ok": True, "payload": payload}))
        except WebhookVerificationError as error:
            print(
                json.dumps({"ok": False, "error": f"{type(error).__name__}: {error}"})
            )


if __name__ == "__main__":
    main()
