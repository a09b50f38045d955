"""The person's part of an OAuth authorization, for a client that prints its authorization URL
(the conformance suite's `authorization-code-grant`, a CLI's login): waits for the URL to appear
in a file, opens it as a browser would, signs in at the journal's sign-in form with the person's
API key, allows on the consent page, and follows the redirect to the client's loopback callback.
Standard library only.

Usage: python3 consent.py FILE   (the key in N8V_CONSENT_KEY; the URL is the last line of FILE
that starts with http and names /oauth/authorize; waits up to 60 s for it)
Prints the callback's status; exits non-zero when a step is not what a person would meet,
the redirect carries no code, or the client's callback refuses it (4xx, 5xx).
"""

import html
import os
import re
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


BROWSER = urllib.request.build_opener(NoRedirect)


def get(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers={"Accept": "text/html", **(headers or {})})
    try:
        response = BROWSER.open(request, timeout=30)
    except urllib.error.HTTPError as refused:
        response = refused
    return response.status, response.headers, response.read().decode("utf-8", "replace")


def cookie(headers, name):
    for header in headers.get_all("set-cookie") or []:
        if header.startswith(name + "="):
            return header.split(";", 1)[0]
    sys.exit(f"consent: no {name} cookie")


def expect(status, wanted, step, body):
    if status != wanted:
        sys.exit(f"consent: {step} answered {status}, not {wanted}: {body[:400]}")


def authorization_url(path):
    for _ in range(600):
        try:
            lines = [l.strip() for l in open(path, errors="replace")]
        except FileNotFoundError:
            lines = []
        found = [l for l in lines if l.startswith("http") and "/oauth/authorize?" in l]
        if found:
            return found[-1]
        time.sleep(0.1)
    sys.exit(f"consent: no authorization URL appeared in {path}")


def main():
    url, key = authorization_url(sys.argv[1]), os.environ["N8V_CONSENT_KEY"]
    base = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    status, headers, body = get(url)
    expect(status, 303, "the authorization URL (not signed in)", body)
    status, form_headers, body = get(urljoin(base, headers["location"]))
    expect(status, 200, "the sign-in form", body)
    fields = [(n, html.unescape(v)) for n, v in HIDDEN.findall(body)] + [("key", key)]
    status, headers, body = get(f"{base}/journal/sign-in", urlencode(fields).encode(),
                                {**FORM, "Cookie": cookie(form_headers, "n8v_pre")})
    expect(status, 303, "signing in", body)
    session = cookie(headers, "n8v_journal")
    status, _, consent = get(urljoin(base, headers["location"]), headers={"Cookie": session})
    expect(status, 200, "the consent page", consent)
    form = consent[consent.find('action="/oauth/authorize"'):]
    fields = [(n, html.unescape(v)) for n, v in HIDDEN.findall(form)] + [("decision", "approve")]
    status, headers, body = get(f"{base}/oauth/authorize", urlencode(fields).encode(),
                                {**FORM, "Cookie": session})
    expect(status, 303, "allowing", body)
    callback = headers["location"]
    query = parse_qs(urlsplit(callback).query)
    if "code" not in query or "error" in query:
        sys.exit(f"consent: allowing redirected without a code: {callback}")
    status, _, body = get(callback)
    # The client took the code: its callback page (2xx), or its redirect to one (3xx). A 4xx or
    # 5xx is a client that refused what the server handed back.
    if not 200 <= status < 400:
        sys.exit(f"consent: the client's callback answered {status}: {body[:400]}")
    print(f"consent: allowed; the client's callback answered {status}")


if __name__ == "__main__":
    main()
