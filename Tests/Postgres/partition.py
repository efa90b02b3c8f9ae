#!/usr/bin/env python3
"""A network partition between geonews-serve and PostgreSQL: a TCP relay between them that,
asked to, stops forwarding without closing anything (a black hole, as a cut link or a dropped
route looks), then heals. While it holds:
- the store's routes answer 503 problem JSON with Retry-After within the store's deadline
  (5 s) plus 1 s, and /healthz and /v1/resolve keep answering 200;
- 24 requests waiting on the store at once do not leave the server with more open descriptors
  once they are answered;
after it heals a write succeeds within 2 s, and every favourite a writer was answered 2xx for,
before, during or after, is stored exactly once.

Usage: partition.py --serve .build/debug/geonews-serve --store postgres://… (the test
PostgreSQL of Tests/Postgres/start.sh, GEONEWS_TEST_POSTGRES_URL). Prints the figures and
"partition: passed" or "partition: FAILED …"; exit 0 or 1.
"""
import argparse
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from failover import report, request, start_server, stop_server, wait_until_up  # noqa: E402

STORE_DEADLINE = 5.0


class Relay:
    """Forwards 127.0.0.1:port to the target; while `cut` is set, reads nothing and forwards
    nothing, new connections included, and closes nothing."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.cut = threading.Event()
        self.healed = threading.Condition()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self.accept, daemon=True).start()

    def wait_while_cut(self):
        with self.healed:
            while self.cut.is_set() and not self.closed:
                self.healed.wait(0.05)

    def accept(self):
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.connect, args=(client,), daemon=True).start()

    def connect(self, client):
        self.wait_while_cut()
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
        except OSError:
            client.close()
            return
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    def pump(self, source, sink):
        try:
            while True:
                self.wait_while_cut()
                data = source.recv(65536)
                if not data:
                    break
                # A read that began before the cut is held until it heals.
                self.wait_while_cut()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def set_cut(self, cut):
        with self.healed:
            if cut:
                self.cut.set()
            else:
                self.cut.clear()
            self.healed.notify_all()


def open_descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", required=True)
    parser.add_argument("--store", required=True)
    options = parser.parse_args()
    store = urlsplit(options.store)
    relay = Relay(store.port)
    through_relay = urlunsplit(store._replace(netloc=f"{store.username}:{store.password}@127.0.0.1:{relay.port}"))
    folder = tempfile.mkdtemp(prefix="geonews-partition-")
    server, port, log = start_server(options.serve, folder, through_relay, "--write-rate", "100000", "--write-burst", "100000")
    problems, figures = [], []
    acknowledged, stop = [], threading.Event()

    def expect(what, got, wanted):
        if got != wanted:
            problems.append(f"{what}: {got}, expected {wanted}")

    try:
        wait_until_up(port)
        status, body, _ = request(port, "POST", "/v1/users")
        expect("POST /v1/users", status, 201)
        token = body["token"]

        def writer():
            n = 0
            while not stop.is_set():
                url = f"https://example.org/partition/{n}"
                status = request(port, "POST", "/v1/favourites", {"url": url, "title": "t"}, token, timeout=30)[0]
                if status in (200, 201):
                    acknowledged.append(url)
                n += 1
                time.sleep(0.02)

        writing = threading.Thread(target=writer)
        writing.start()
        time.sleep(1)
        descriptors_before = open_descriptors(server.pid)

        relay.set_cut(True)
        began = time.monotonic()
        status, _, headers = request(port, "GET", "/v1/settings", token=token, timeout=30)
        took = time.monotonic() - began
        figures.append(f"GET /v1/settings through the black hole: {status} in {took:.1f} s")
        expect("GET /v1/settings, partitioned", status, 503)
        if took > STORE_DEADLINE + 1:
            problems.append(f"the 503 took {took:.1f} s, more than the store's deadline plus 1 s")
        if not (headers.get("Retry-After") or headers.get("retry-after")):
            problems.append("the 503 has no Retry-After")
        expect("/healthz, partitioned", request(port, "GET", "/healthz")[0], 200)
        expect("/v1/resolve, partitioned", request(port, "GET", "/v1/resolve?lat=48.8566&lon=2.3522")[0], 200)
        with ThreadPoolExecutor(24) as pool:
            answers = list(pool.map(lambda _: request(port, "GET", "/v1/favourites", token=token, timeout=30)[0], range(24)))
        expect("24 waiting requests, partitioned", sorted(set(answers)), [503])
        time.sleep(1)
        descriptors_during = open_descriptors(server.pid)
        figures.append(f"open descriptors {descriptors_before} before, {descriptors_during} after 24 requests waited on the store")
        if descriptors_during > descriptors_before + 8:
            problems.append(f"descriptors grew from {descriptors_before} to {descriptors_during} with waiting requests")

        relay.set_cut(False)
        healed = time.monotonic()
        status = 0
        while time.monotonic() - healed < 30:
            status = request(port, "PUT", "/v1/settings", {"newsCountry": "FR"}, token, timeout=30)[0]
            if status == 200:
                break
            time.sleep(0.05)
        back = time.monotonic() - healed
        figures.append(f"a write succeeded {back:.2f} s after the relay healed")
        expect("PUT /v1/settings, healed", status, 200)
        if back > 2:
            problems.append(f"writes came back {back:.2f} s after the heal, more than 2 s")
        time.sleep(1)
        stop.set()
        writing.join()

        stored, before = [], None
        while True:
            path = "/v1/favourites?limit=100" + (f"&before={before}" if before else "")
            status, page, _ = request(port, "GET", path, token=token)
            expect("GET /v1/favourites", status, 200)
            if status != 200 or not page:
                break
            stored += [f["url"] for f in page]
            before = page[-1]["id"]
        duplicates = len(stored) - len(set(stored))
        missing = set(acknowledged) - set(stored)
        figures.append(f"{len(acknowledged)} favourites acknowledged, {len(stored)} stored, {duplicates} twice, {len(missing)} missing")
        if duplicates or missing:
            problems.append(f"{len(missing)} acknowledged writes missing, {duplicates} stored twice")
    finally:
        stop.set()
        relay.closed = True
        relay.set_cut(False)
        problems += stop_server(server, log, store.password)
        shutil.rmtree(folder, ignore_errors=True)
    return report("partition", figures, problems)


if __name__ == "__main__":
    sys.exit(main())
