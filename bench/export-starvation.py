#!/usr/bin/env python3
"""Issue 34 finding 1, measured: does one account's exports take the database from another?

Against a running service (URL) with account A's token (a big journal) and account B's token:

  stalled  N clients ask for A's export, read the headers and a little, then stop reading;
           meanwhile B lists its sessions K times (each with a 10 s timeout).
  fast     N clients read A's export at full speed; B lists its sessions K times meanwhile.

Each mode first times B's list alone (its usual time), then under the load, and prints the
statuses, the median and the worst time, and the worst time as a ratio of the usual median
(one run, one machine: compare ratios, not seconds). Standard library only.

  bench/export-starvation.py URL TOKEN_A TOKEN_B [--clients 20] [--reads 6]
"""

import argparse
import http.client
import socket
import statistics
import threading
import time
import urllib.parse


def request(base, token, path, timeout):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    started = time.monotonic()
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        resp.read()
        return resp.status, time.monotonic() - started
    except (socket.timeout, TimeoutError):
        return "timeout", time.monotonic() - started
    except OSError as e:
        return f"error:{e.__class__.__name__}", time.monotonic() - started
    finally:
        conn.close()


def reads(base, token, count, pause=0.5):
    out = []
    for _ in range(count):
        out.append(request(base, token, "/api/v1/journal/sessions?limit=20", 10))
        time.sleep(pause)
    return out


def stalled_export(base, token, hold, opened):
    """Asks for the export, reads its first bytes, then stops reading for `hold` seconds."""
    url = urllib.parse.urlparse(base)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    s.connect((url.hostname, url.port))
    s.sendall(
        f"GET /api/v1/journal/export HTTP/1.1\r\nHost: {url.hostname}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    s.settimeout(15)
    try:
        head = s.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
    except OSError as e:
        head = f"error:{e.__class__.__name__}"
    opened.append(head)
    time.sleep(hold)
    s.close()


def fast_export(base, token, results):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=300)
    started = time.monotonic()
    try:
        conn.request("GET", "/api/v1/journal/export", headers={"Authorization": f"Bearer {token}"})
        resp = conn.getresponse()
        size = len(resp.read())
        results.append((resp.status, size, time.monotonic() - started))
    except OSError as e:
        results.append((f"error:{e.__class__.__name__}", 0, time.monotonic() - started))
    finally:
        conn.close()


def report(label, usual, loaded):
    usual_median = statistics.median(t for _, t in usual)
    statuses = {}
    for status, _ in loaded:
        statuses[status] = statuses.get(status, 0) + 1
    times = [t for _, t in loaded]
    print(
        f"{label}: B's reads {statuses}; usual median {usual_median * 1000:.1f} ms; "
        f"under load median {statistics.median(times) * 1000:.1f} ms, worst "
        f"{max(times) * 1000:.1f} ms = {max(times) / usual_median:.1f}x the usual median"
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("token_a")
    p.add_argument("token_b")
    p.add_argument("--clients", type=int, default=20)
    p.add_argument("--reads", type=int, default=6)
    p.add_argument("--hold", type=float, default=40)
    a = p.parse_args()

    usual = reads(a.url, a.token_b, a.reads, pause=0.1)

    opened = []
    threads = [
        threading.Thread(target=stalled_export, args=(a.url, a.token_a, a.hold, opened))
        for _ in range(a.clients)
    ]
    for t in threads:
        t.start()
    time.sleep(3)
    loaded = reads(a.url, a.token_b, a.reads)
    heads = {}
    for h in opened:
        heads[h] = heads.get(h, 0) + 1
    print(f"stalled: {a.clients} exports of A answered {heads}")
    report("stalled", usual, loaded)
    for t in threads:
        t.join()

    results = []
    threads = [
        threading.Thread(target=fast_export, args=(a.url, a.token_a, results))
        for _ in range(a.clients)
    ]
    for t in threads:
        t.start()
    time.sleep(0.5)
    loaded = reads(a.url, a.token_b, a.reads * 2, pause=0.2)
    for t in threads:
        t.join()
    by_status = {}
    for status, size, _ in results:
        by_status.setdefault(status, []).append(size)
    summary = {s: f"{len(v)} ({max(v) / 1e6:.1f} MB)" for s, v in by_status.items()}
    print(f"fast: {a.clients} exports of A answered {summary}")
    report("fast", usual, loaded)


if __name__ == "__main__":
    main()
