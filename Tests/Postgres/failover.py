#!/usr/bin/env python3
"""Acknowledged means committed: two geonews-serve instances on one PostgreSQL behind nginx
(round-robin), concurrent writers saving favourites, and one instance killed with SIGKILL at
random, again and again, then restarted. Afterwards every favourite answered 2xx must be stored
exactly once, as seen through either instance, and the only failures clients saw must be the
killed instance's in-flight requests (nginx answers those 502).

Usage: failover.py --serve .build/debug/geonews-serve --store postgres://… [--kills 20]
Prints one line of figures and "failover: passed" or "failover: FAILED …"; exit 0 or 1.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(serve, folder, store, *extra):
    """geonews-serve on a free port with its state in `folder`, on the PostgreSQL `store`, its
    output in `folder`/server.log: (process, port, log)."""
    port = free_port()
    log = open(os.path.join(folder, "server.log"), "w+")
    server = subprocess.Popen([serve, "--port", str(port), "--state-dir", os.path.join(folder, "state"), "--store", store, *extra],
                              stdout=log, stderr=subprocess.STDOUT)
    return server, port, log


def nginx_head(folder, access_log="off"):
    """The part of an nginx.conf every test shares: foreground, one worker, everything it
    writes in `folder`; the `http {` block is left open for the caller's servers."""
    return f"""
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {access_log};
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
"""


def wait_until_up(port, tries=300):
    """Waits (0.1 s a try) until the server on `port` answers /healthz 200."""
    for _ in range(tries):
        if request(port, "GET", "/healthz")[0] == 200:
            return True
        time.sleep(0.1)
    return False


def stop_server(server, log, secret=None):
    """Stops `server` (SIGTERM, then SIGKILL after 60 s); a problem if its output holds `secret`."""
    server.terminate()
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
    log.seek(0)
    return ["the server's output holds the password"] if secret and secret in log.read() else []


def report(name, figures, problems):
    """Prints a line per figure and per problem, then "NAME: passed" or the failures; the exit code."""
    for line in figures:
        print(f"{name}: {line}")
    for p in problems:
        print(f"{name}: FAILED: {p}")
    if problems:
        return 1
    print(f"{name}: passed")
    return 0


class Instance:
    """One geonews-serve on a fixed port, restartable after a kill."""

    def __init__(self, serve, store, port, state, data):
        self.args = [serve, "--host", "127.0.0.1", "--port", str(port), "--state-dir", state,
                     "--store", store, "--write-rate", "100000", "--write-burst", "100000"]
        if data:
            self.args += ["--data", data]
        self.port = port
        self.process = None

    def start(self, deadline=60):
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()  # "geonews-serve: listening on …", once bound
        if "listening on" not in line:
            raise SystemExit(f"failover: instance on port {self.port} did not start ({line.strip()!r}, exit {self.process.poll()})")
        # Keep draining its output so that it never blocks on a full pipe.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def request(port, method, path, body=None, token=None, timeout=15):
    """(status, parsed body or None, headers); status 0 for a connection error."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = None
        return answer.status, parsed, dict(answer.getheaders())
    except (ConnectionError, OSError, http.client.HTTPException):
        return 0, None, {}
    finally:
        connection.close()


def nginx_config(folder, port, upstreams):
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in upstreams)
    return nginx_head(folder) + f"""    upstream geonews {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://geonews;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
        }}
    }}
}}
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--data")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    options = parser.parse_args()
    chance = random.Random(options.seed)

    folder = tempfile.mkdtemp(prefix="geonews-failover-")
    os.chmod(folder, 0o755)
    ports = [free_port(), free_port()]
    front = free_port()
    instances = [Instance(options.serve, options.store, p, os.path.join(folder, f"state{i}"), options.data)
                 for i, p in enumerate(ports)]
    with open(os.path.join(folder, "nginx.conf"), "w") as f:
        f.write(nginx_config(folder, front, ports))
    nginx = None
    try:
        # Both at once on the same database: the migrations must run once between them.
        starters = [threading.Thread(target=i.start) for i in instances]
        for t in starters:
            t.start()
        for t in starters:
            t.join()
        if any(i.process is None or i.process.poll() is not None for i in instances):
            print("failover: FAILED an instance did not start")
            return 1
        nginx = subprocess.Popen([options.nginx, "-p", folder, "-c", os.path.join(folder, "nginx.conf")],
                                 stderr=subprocess.DEVNULL)
        for _ in range(100):
            if request(front, "GET", "/healthz")[0] == 200:
                break
            time.sleep(0.1)
        else:
            print("failover: FAILED nginx did not come up")
            return 1

        tokens = []
        for _ in range(options.writers):
            status, body, _ = request(front, "POST", "/v1/users")
            if status != 201:
                print(f"failover: FAILED POST /v1/users answered {status}")
                return 1
            tokens.append(body["token"])

        stop = threading.Event()
        lock = threading.Lock()
        acknowledged = [[] for _ in tokens]  # urls answered 2xx, per writer
        figures = {"writes": 0, "acknowledged": 0, "retried": 0, "connection": 0}
        unexpected = []

        def writer(n):
            i = 0
            while not stop.is_set():
                url = f"https://news.example/w{n}/{i}"
                # A write that fails on a killed instance is retried until acknowledged: saving
                # the same article again must answer the one already stored, never a second.
                while True:
                    status, body, _ = request(front, "POST", "/v1/favourites",
                                              {"url": url, "title": f"Article {n}/{i}"}, tokens[n])
                    with lock:
                        figures["writes"] += 1
                    if status in (200, 201):
                        with lock:
                            figures["acknowledged"] += 1
                        acknowledged[n].append(url)
                        break
                    with lock:
                        figures["retried"] += 1
                        if status in (0, 502):
                            figures["connection"] += 1
                        else:
                            unexpected.append(f"{status} {json.dumps(body)[:200] if body else ''}")
                    if stop.is_set() and status != 502 and status != 0:
                        break
                    time.sleep(0.05)
                i += 1

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(len(tokens))]
        began = time.monotonic()
        for t in threads:
            t.start()
        for _ in range(options.kills):
            time.sleep(chance.uniform(0.3, 1.2))
            victim = chance.choice(instances)
            victim.kill()
            time.sleep(chance.uniform(0.0, 0.3))
            victim.start()
        time.sleep(0.5)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        elapsed = time.monotonic() - began

        problems = list(unexpected[:5])
        stored_total = 0
        for n, token in enumerate(tokens):
            for port in ports:  # each instance directly: both must see the same
                seen = []
                path = "/v1/favourites?limit=500"
                while path:
                    status, body, headers = request(port, "GET", path, token=token)
                    if status != 200:
                        problems.append(f"GET {path} on :{port} answered {status}")
                        break
                    seen += [f["url"] for f in body]
                    link = headers.get("Link") or headers.get("link")
                    path = link.split(">")[0].lstrip("<") if link else None
                twice = len(seen) - len(set(seen))
                missing = set(acknowledged[n]) - set(seen)
                if twice:
                    problems.append(f"writer {n}: {twice} favourites stored twice (seen on :{port})")
                if missing:
                    problems.append(f"writer {n}: {len(missing)} acknowledged favourites missing on :{port}, e.g. {sorted(missing)[0]}")
                if port == ports[0]:
                    stored_total += len(seen)
        if stored_total != figures["acknowledged"]:
            problems.append(f"{stored_total} favourites stored for {figures['acknowledged']} acknowledged")
        print(f"failover: {options.kills} kills in {elapsed:.1f} s, {len(tokens)} writers, "
              f"{figures['writes']} writes sent, {figures['acknowledged']} acknowledged, "
              f"{figures['connection']} cut by a kill (502 or reset) and retried, "
              f"{len(unexpected)} other errors, {stored_total} favourites stored (seed {options.seed})")
        if problems:
            print("failover: FAILED " + "; ".join(problems[:8]))
            return 1
        print("failover: passed")
        return 0
    finally:
        if nginx:
            nginx.terminate()
            nginx.wait()
        for i in instances:
            i.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
