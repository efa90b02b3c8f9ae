#!/usr/bin/env python3
"""PostgreSQL going away under a running geonews-serve, and coming back: the store's routes
answer 503 problem JSON with Retry-After within the store's call deadline, /readyz answers 503
naming the store, while /healthz, /v1/resolve and the markers' clusters keep answering 200; once
PostgreSQL is back the store's routes answer again with the data written before. The server's
output never holds the password.

Usage: outage.py --serve .build/debug/geonews-serve --store postgres://… --ctl CTL
(CTL: the stop | start script Tests/Postgres/start.sh exports as GEONEWS_TEST_POSTGRES_CTL).
Prints the figures and "outage: passed" or "outage: FAILED …"; exit 0 or 1.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from failover import report, request, start_server, stop_server, wait_until_up  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--ctl", required=True)
    options = parser.parse_args()
    password = urlsplit(options.store).password or ""
    folder = tempfile.mkdtemp(prefix="geonews-outage-")
    server, port, log = start_server(options.serve, folder, options.store)
    problems, figures = [], []

    def expect(what, got, wanted):
        if got != wanted:
            problems.append(f"{what}: {got}, expected {wanted}")

    try:
        wait_until_up(port)
        status, body, _ = request(port, "POST", "/v1/users")
        expect("POST /v1/users", status, 201)
        token = body["token"]
        expect("PUT /v1/settings", request(port, "PUT", "/v1/settings", {"newsCountry": "FR"}, token)[0], 200)

        subprocess.run([options.ctl, "stop"], check=True, stdout=subprocess.DEVNULL)
        began = time.monotonic()
        status, body, headers = request(port, "GET", "/v1/settings", token=token, timeout=30)
        figures.append(f"GET /v1/settings with PostgreSQL stopped: {status} in {time.monotonic() - began:.1f} s")
        expect("GET /v1/settings, store stopped", status, 503)
        if not (headers.get("Retry-After") or headers.get("retry-after")):
            problems.append("the 503 has no Retry-After")
        if not (headers.get("Content-Type", "").startswith("application/problem+json")):
            problems.append(f"the 503 is not problem JSON ({headers.get('Content-Type')})")
        status, body, _ = request(port, "GET", "/readyz", timeout=30)
        expect("/readyz, store stopped", (status, (body or {}).get("store")), (503, "unavailable"))
        expect("/healthz, store stopped", request(port, "GET", "/healthz")[0], 200)
        expect("/v1/resolve, store stopped", request(port, "GET", "/v1/resolve?lat=48.8566&lon=2.3522")[0], 200)
        expect("/v1/clusters, store stopped", request(port, "GET", "/v1/clusters?bbox=-180,-85,180,85&zoom=2")[0], 200)

        subprocess.run([options.ctl, "start"], check=True, stdout=subprocess.DEVNULL)
        began = time.monotonic()
        for _ in range(300):
            status, body, _ = request(port, "GET", "/v1/settings", token=token, timeout=30)
            if status == 200:
                break
            time.sleep(0.1)
        figures.append(f"back {time.monotonic() - began:.1f} s after PostgreSQL restarted")
        expect("GET /v1/settings, store back", (status, (body or {}).get("newsCountry")), (200, "fr"))
        expect("/readyz, store back", request(port, "GET", "/readyz")[0], 200)
    finally:
        problems += stop_server(server, log, password)
        shutil.rmtree(folder, ignore_errors=True)
    return report("outage", figures, problems)


if __name__ == "__main__":
    sys.exit(main())
