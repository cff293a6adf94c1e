#!/usr/bin/env python3
"""The loopback web server of check --check-links' tests (Tests/IntegrationTests/AssetCheck/LinkCheckTests.swift).

usage: link_server.py LOG [CERT KEY]   (serves on 127.0.0.1, a free port; prints the port on stdout;
                                         with CERT and KEY, https with that certificate)

Every request is appended to LOG as one JSON line (method, path, and the headers a test looks at:
Authorization, Cookie, User-Agent, Proxy-Authorization) before it is answered. Paths:
  /ok                200
  /status/N          status N
  /redirect/N        N (301, 302, ...) to /ok
  /to?u=URL          302 to URL (a hop the check must judge before following)
  /loop/a, /loop/b   302 to each other
  /slow              200 after 3 s
  /head405           HEAD 405, GET 200
  /busy/KEY          429 with Retry-After: 1 the first time for KEY, then 200
"""
import json
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer
from socketserver import ThreadingMixIn

LOG = sys.argv[1]
lock = threading.Lock()
seen = {}


class Server(ThreadingMixIn, HTTPServer):
    daemon_threads = True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def record(self):
        entry = {"method": self.command, "path": self.path, "time": time.time()}
        for h in ("Authorization", "Cookie", "User-Agent", "Proxy-Authorization", "Host"):
            if self.headers.get(h) is not None:
                entry[h.lower()] = self.headers.get(h)
        with lock:
            with open(LOG, "a") as f:
                f.write(json.dumps(entry) + "\n")

    def answer(self, status, headers=(), body=b"ok\n"):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def route(self):
        self.record()
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        if path == "/ok":
            return self.answer(200)
        if path.startswith("/status/"):
            return self.answer(int(path.split("/")[2]))
        if path.startswith("/redirect/"):
            return self.answer(int(path.split("/")[2]), [("Location", "/ok")])
        if path == "/to":
            return self.answer(302, [("Location", urllib.parse.parse_qs(url.query)["u"][0])])
        if path == "/loop/a":
            return self.answer(302, [("Location", "/loop/b")])
        if path == "/loop/b":
            return self.answer(302, [("Location", "/loop/a")])
        if path == "/slow":
            time.sleep(3)
            return self.answer(200)
        if path == "/head405":
            return self.answer(405 if self.command == "HEAD" else 200)
        if path.startswith("/busy/"):
            with lock:
                first = path not in seen
                seen[path] = True
            return self.answer(429, [("Retry-After", "1")]) if first else self.answer(200)
        return self.answer(404)

    do_GET = route
    do_HEAD = route


server = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) == 4:
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = tls.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
