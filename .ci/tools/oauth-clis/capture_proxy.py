"""Logging reverse proxy: every request (method, target, headers, body) and answer (status,
headers, body) as one JSON line, then passed through unchanged. For capturing a CLI's OAuth.

Usage: python3 capture_proxy.py LISTEN_PORT UPSTREAM_URL LOG_FILE
"""

import http.client
import http.server
import json
import sys
import threading
import urllib.parse

HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
       "upgrade"}
LOCK = threading.Lock()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream: urllib.parse.SplitResult
    log_file: str

    def forward(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        upstream = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port,
                                              timeout=60)
        record = {"method": self.command, "target": self.path,
                  "headers": list(self.headers.items()), "body": body.decode("utf-8", "replace")}
        try:
            upstream.request(self.command, self.path, body=body or None, headers=headers)
            response = upstream.getresponse()
            streamed = self.command == "GET" and "text/event-stream" in (
                response.getheader("content-type") or "")
            whole = b"" if streamed else response.read()
            record["status"] = response.status
            record["response_headers"] = response.getheaders()
            record["response_body"] = whole.decode("utf-8", "replace")[:4000]
            with LOCK, open(self.log_file, "a") as log:
                log.write(json.dumps(record) + "\n")
            self.send_response_only(response.status, response.reason)
            for name, value in response.getheaders():
                if name.lower() not in HOP and name.lower() != "content-length":
                    self.send_header(name, value)
            if streamed:
                self.send_header("Connection", "close")
                self.close_connection = True
                self.end_headers()
                while chunk := response.read1(65536):
                    self.wfile.write(chunk)
                    self.wfile.flush()
                return
            self.send_header("Content-Length", str(len(whole)))
            self.end_headers()
            self.wfile.write(whole)
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            upstream.close()

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_OPTIONS = do_HEAD = forward

    def log_message(self, format, *args):
        pass


def main():
    Proxy.upstream = urllib.parse.urlsplit(sys.argv[2])
    Proxy.log_file = sys.argv[3]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Proxy)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
