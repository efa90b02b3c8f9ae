#!/usr/bin/env python3
"""geonews-serve behind nginx (Debian's) with --trusted-proxy: the write limit counts each
client, not the proxy, and no client can pick its own address.

nginx listens on 127.0.0.2 and reaches the server from 127.0.0.1, the one trusted proxy; the
clients connect from their own loopback addresses (127.0.0.3, .4, …), so nginx sees each as it
would see a client on the internet and adds it to X-Forwarded-For. With a burst of 4 writes:
- two clients behind the proxy each get their own 4 (the fifth of each is 429);
- a client that sends its own X-Forwarded-For through the proxy stays itself;
- a client straight to the server is its peer address, whatever X-Forwarded-For it sends;
- one bearer token used from five addresses is limited as one user (429 naming the user);
- the server's own access log (--access-log) names each client, through the proxy or not, on
  both of the server's doors (GET /v1/resolve answered on the event loop, the router's routes);
  a 429 names the client's address; /metrics counts the 429s by address and by user, and the
  buckets of the clients, not of the proxy.

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


def get(host, port, path, source):
    """(status, text) of a GET from the loopback address `source`."""
    connection = http.client.HTTPConnection(host, port, timeout=15, source_address=(source, 0))
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def metric(text, name):
    """The value of the sample `name` (with its labels) in Prometheus text, or None."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return None


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
                               "--trusted-proxy", "127.0.0.1/32", "--write-rate", "0.001", "--write-burst", "4",
                               "--access-log", os.path.join(folder, "server-access.log")],
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
        status, body = through("127.0.0.3")
        check("the sixth write's problem names the client", (status, (body or {}).get("detail", "").split(" made")[0]),
              (429, "this address (127.0.0.3)"))
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

        # Both doors, through the proxy and straight: the access log names the client.
        check("a resolve through the proxy", get("127.0.0.2", front, "/v1/resolve?lat=48.85&lon=2.35", "127.0.0.20")[0], 200)
        check("a country list through the proxy", get("127.0.0.2", front, "/v1/countries", "127.0.0.21")[0], 200)
        check("a resolve straight to the server", get("127.0.0.1", port, "/v1/resolve?lat=48.85&lon=2.35", "127.0.0.22")[0], 200)
        status, text = get("127.0.0.1", port, "/metrics", "127.0.0.1")
        check("429s by address in /metrics", metric(text, 'geonews_write_limited_total{by="address"}'), 5.0)
        check("429s by user in /metrics", metric(text, 'geonews_write_limited_total{by="user"}'), 1.0)
        # 127.0.0.3, .4, .5, .6 and .10-.14 wrote: nine client buckets, not one for the proxy.
        check("client buckets in /metrics", metric(text, 'geonews_write_limit_buckets{kind="address"}'), 9.0)
        time.sleep(0.6)  # the log is written at least every 0.2 s
        with open(os.path.join(folder, "server-access.log")) as f:
            lines = f.read().splitlines()
        def client_of(fragment):
            return [line.split(" ", 1)[0] for line in lines if fragment in line]
        check("access log: the resolve through the proxy", client_of('"GET /v1/resolve?lat=48.85&lon=2.35 HTTP/1.1" 200')[:2],
              ["127.0.0.20", "127.0.0.22"])
        check("access log: the country list through the proxy", client_of('"GET /v1/countries HTTP/1.1" 200'), ["127.0.0.21"])
        # In order: the fifth of .3 and of .4, the sixth of .3, .3's forged one, the fifth of .5.
        check("access log: each 429 names its client, forged or not", client_of('"POST /v1/users HTTP/1.1" 429'),
              ["127.0.0.3", "127.0.0.4", "127.0.0.3", "127.0.0.3", "127.0.0.5"])
        check("access log: no line names 198.51.100.x", [line for line in lines if "198.51.100" in line.split(" ", 1)[0]], [])
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
