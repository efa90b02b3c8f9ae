#!/usr/bin/env python3
"""geonews-serve behind nginx (Debian's) with --trusted-proxy: the write limit counts each
client, not the proxy, and no client can pick its own address.

nginx listens on 127.0.0.2 and reaches the server from 127.0.0.1, the one trusted proxy; the
clients connect from their own loopback addresses (127.0.0.3, .4, …), so nginx sees each as it
would see a client on the internet and adds it to X-Forwarded-For. With a burst of 4 writes:
- two clients behind the proxy each get their own 4 (the fifth of each is 429);
- a client that sends its own X-Forwarded-For through the proxy stays itself;
- a client straight to the server is its peer address, whatever X-Forwarded-For it sends;
- one bearer token used from five addresses is limited as one user (429 naming the user).

Usage: proxy.py --serve .build/debug/geonews-serve. Prints one line per check and
"proxy: passed" or "proxy: FAILED …"; exit 0 or 1.
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Postgres"))
from failover import free_port, nginx_head, report  # noqa: E402


def post(host, port, path, source, body=None, token=None, headers=None):
    """(status, parsed body or None) of a POST from the loopback address `source`."""
    connection = http.client.HTTPConnection(host, port, timeout=15, source_address=(source, 0))
    fields = dict(headers or {})
    if body is not None:
        fields["Content-Type"] = "application/json"
    if token:
        fields["Authorization"] = f"Bearer {token}"
    try:
        connection.request("POST", path, body=json.dumps(body) if body is not None else None, headers=fields)
        answer = connection.getresponse()
        data = answer.read()
        try:
            return answer.status, json.loads(data) if data else None
        except ValueError:
            return answer.status, None
    finally:
        connection.close()


def nginx_config(folder, front, server_port):
    return nginx_head(folder, f"{folder}/access.log") + f"""    server {{
        listen 127.0.0.2:{front};
        location / {{
            proxy_pass http://127.0.0.1:{server_port};
            proxy_bind 127.0.0.1;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", required=True)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="geonews-proxy-")
    os.chmod(folder, 0o755)
    port, front = free_port(), free_port()
    with open(os.path.join(folder, "nginx.conf"), "w") as f:
        f.write(nginx_config(folder, front, port))
    log = open(os.path.join(folder, "server.log"), "w+")
    server = subprocess.Popen([options.serve, "--host", "127.0.0.1", "--port", str(port), "--state-dir", os.path.join(folder, "state"),
                               "--trusted-proxy", "127.0.0.1/32", "--write-rate", "0.001", "--write-burst", "4"],
                              stdout=log, stderr=subprocess.STDOUT)
    nginx = subprocess.Popen([options.nginx, "-p", folder, "-c", os.path.join(folder, "nginx.conf")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    problems, seen = [], []

    def check(what, got, wanted):
        seen.append(f"{what}: {got}")
        if got != wanted:
            problems.append(f"{what}: {got}, expected {wanted}")

    def through(source, **kw):
        return post("127.0.0.2", front, kw.pop("path", "/v1/users"), source, **kw)

    try:
        for _ in range(300):
            try:
                if through("127.0.0.250", path="/v1/nothing")[0] == 404:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        a = [through("127.0.0.3")[0] for _ in range(5)]
        b = [through("127.0.0.4")[0] for _ in range(5)]
        check("client 127.0.0.3 through the proxy, 5 writes", a, [201, 201, 201, 201, 429])
        check("client 127.0.0.4 through the proxy, 5 writes", b, [201, 201, 201, 201, 429])
        forged = through("127.0.0.3", headers={"X-Forwarded-For": "198.51.100.9"})[0]
        check("client 127.0.0.3 claiming 198.51.100.9 through the proxy", forged, 429)
        direct = [post("127.0.0.1", port, "/v1/users", "127.0.0.5", headers={"X-Forwarded-For": f"198.51.100.{n}"})[0]
                  for n in range(5)]
        check("client 127.0.0.5 straight to the server, a new X-Forwarded-For each time", direct, [201, 201, 201, 201, 429])

        status, body = through("127.0.0.6")
        token = (body or {}).get("token")
        check("a user made through the proxy", status, 201)
        writes = []
        for n in range(5):
            writes.append(through(f"127.0.0.{10 + n}", path="/v1/favourites", body={"url": f"https://example.org/{n}", "title": "t"},
                                  token=token))
        check("one token from five addresses, 5 writes", [s for s, _ in writes], [201, 201, 201, 201, 429])
        detail = (writes[-1][1] or {}).get("detail", "")
        check("the fifth names the user", detail.startswith("this user made more than 4 writes"), True)
    finally:
        nginx.terminate()
        server.terminate()
        for p in (nginx, server):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(folder, ignore_errors=True)
    return report("proxy", seen, problems)


if __name__ == "__main__":
    sys.exit(main())
