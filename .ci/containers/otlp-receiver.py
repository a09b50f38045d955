"""Accepts OTLP/HTTP exports (any signal) and logs `received /v1/traces 1234 bytes`."""
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        print(f"received {self.path} {len(body)} bytes", flush=True)
        # An empty protobuf message is a complete Export*ServiceResponse.
        self.send_response(200)
        self.send_header("content-type", self.headers.get("content-type", "application/x-protobuf"))
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


bind = os.environ.get("OTLP_BIND", "0.0.0.0")
ThreadingHTTPServer((bind, int(os.environ["OTLP_PORT"])), Receiver).serve_forever()
