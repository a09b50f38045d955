"""A reverse proxy that adds `Authorization: Bearer <key>` to every request, for the MCP
conformance suite, which cannot send headers of its own (its issue #453).

Everything else passes through as the client sent it, `Host` and `Origin` included (the suite's
DNS-rebinding scenario must reach the server's own checks); a GET's SSE stream is passed on as
it arrives, every other response goes back whole with its length.

Usage: python3 bearer_proxy.py LISTEN_PORT UPSTREAM_URL   (the key in N8V_PROXY_BEARER)
"""

import http.client
import http.server
import os
import sys
import urllib.parse

# Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own on each side.
HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
       "upgrade"}


class Proxy(http.server.BaseHTTPRequestHandler):
    # HTTP/1.1 to the client: a whole response goes back with its length on a connection that
    # stays open; only a stream of unknown length (a GET's SSE) ends by closing it. (Node 22's
    # undici crashes, `assert(!this.paused)`, when a connection closes under a body it has
    # paused: the suite cancels a large tools/list after its first event.)
    protocol_version = "HTTP/1.1"
    upstream: urllib.parse.SplitResult
    bearer: str

    def forward(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        if not any(k.lower() == "authorization" for k in headers):
            headers["Authorization"] = f"Bearer {self.bearer}"
        upstream = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port,
                                              timeout=120)
        try:
            upstream.request(self.command, self.path, body=body, headers=headers)
            response = upstream.getresponse()
            self.send_response_only(response.status, response.reason)
            for name, value in response.getheaders():
                if name.lower() not in HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            streamed = self.command == "GET" and "text/event-stream" in (
                response.getheader("content-type") or "")
            if not streamed:
                # Stateless MCP answers a POST with a finite body (JSON, or SSE that ends).
                whole = response.read()
                self.send_header("Content-Length", str(len(whole)))
                self.end_headers()
                self.wfile.write(whole)
                self.wfile.flush()
                return
            self.send_header("Connection", "close")
            self.close_connection = True
            self.end_headers()
            while chunk := response.read1(65536):
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (the suite closes SSE streams it is done with)
        finally:
            upstream.close()

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_OPTIONS = do_HEAD = forward

    def log_message(self, format, *args):
        pass  # the server logs every request itself; the bearer is never printed here


def main():
    port, upstream = int(sys.argv[1]), urllib.parse.urlsplit(sys.argv[2])
    Proxy.upstream = upstream
    Proxy.bearer = os.environ["N8V_PROXY_BEARER"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Proxy)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
