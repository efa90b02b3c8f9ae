"""Runs the web map's checks of its source (once) and its browser scenarios against a real
geonews-serve and the loopback provider fixtures, at desktop and phone sizes, saving screenshots
of each; prints one line per check and scenario and "webmap: N passed, M failed" last. Exit
status 1 when any failed.

    Tests/WebMap/.venv/bin/python Tests/WebMap/run.py --serve .build/debug/geonews-serve [--out DIR]
"""
import argparse
import os
import sys
import tempfile
import traceback
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import DESKTOP, PHONE, chromium, set_size  # noqa: E402
from fixture_server import ProviderFixtureServer  # noqa: E402
from module_graph import check_the_modules_import_without_a_cycle  # noqa: E402
from scenarios import SCENARIOS  # noqa: E402
from servers import GeoNewsServer, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# Checks of the page's source that need neither a browser nor a server: run once, not per size.
SOURCE_CHECKS = [check_the_modules_import_without_a_cycle]

# A harmless request per route, to learn whether the server has it yet.
PROBES = {
    "GET /v1/clusters": ("GET", "/v1/clusters?bbox=-180,-85,180,85&zoom=1", None),
    "GET /v1/countries": ("GET", "/v1/countries?search=fr", None),
    "GET /v1/headlines": ("GET", "/v1/headlines?country=fr&limit=1", None),
    "GET /v1/resolve": ("GET", "/v1/resolve?lat=48.8566&lon=2.3522", None),
    "POST /v1/resolve": ("POST", "/v1/resolve", b"lat,lon\n48.8566,2.3522\n"),
    "POST /v1/users": ("POST", "/v1/users", b""),
    "GET /v1/favourites": ("GET", "/v1/favourites", None),
    "POST /v1/datasets": ("GET", "/v1/datasets", None),
}


def missing_routes(server):
    """The probed routes the server answers with "no route" (404) or 405: not built yet."""
    missing = set()
    for route, (method, path, body) in PROBES.items():
        request = urllib.request.Request(server.url + path, data=body, method=method,
                                         headers={"Content-Type": "text/csv"} if body else {})
        try:
            urllib.request.urlopen(request, timeout=30).close()
        except urllib.error.HTTPError as e:
            detail = e.read().decode(errors="replace")
            if e.code == 405 or (e.code == 404 and "no route for" in detail):
                missing.add(route)
    return missing


class Context:
    def __init__(self, serve, out, work):
        self.serve, self.out, self.work = serve, out, work
        self.providers = ProviderFixtureServer()
        self.server = GeoNewsServer(serve, str(ROOT), os.path.join(work, "state"), self.providers.url).start()
        self.size = DESKTOP

    def screenshot(self, driver, name):
        path = os.path.join(self.out, f"{name}-{self.size[0]}x{self.size[1]}.png")
        driver.save_screenshot(path)

    def unreachable_server(self):
        """A second server whose providers point at a loopback port nothing listens on."""
        dead = f"http://127.0.0.1:{free_port()}"
        return GeoNewsServer(self.serve, str(ROOT), os.path.join(self.work, f"state-down-{self.size[0]}"), dead).start()

    def stale_server(self):
        """A second server with its own providers and a one-second cache lifetime, so that a
        request a second later goes upstream and, once the providers stop, gets the stale answer."""
        providers = ProviderFixtureServer()
        server = GeoNewsServer(self.serve, str(ROOT), os.path.join(self.work, f"state-stale-{self.size[0]}"), providers.url,
                               config={"providers": ["google-news"], "cacheTTLSeconds": 1}).start()
        return server, providers

    def stop(self):
        self.server.stop()
        self.providers.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", default=str(ROOT / ".build/debug/geonews-serve"))
    parser.add_argument("--out", default=str(ROOT / "Tests/WebMap/out"))
    parser.add_argument("--only", help="run the scenarios whose name contains this")
    parser.add_argument("--sizes", default="desktop,phone")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sizes = [{"desktop": DESKTOP, "phone": PHONE}[s] for s in args.sizes.split(",")]
    passed = failed = 0
    blocked = {}
    for check in SOURCE_CHECKS:
        name = check.__name__.removeprefix("check_")
        if args.only and args.only not in name:
            continue
        try:
            detail = check()
            passed += 1
            print(f"PASS source {name}: {detail}", flush=True)
        except AssertionError as e:
            failed += 1
            print(f"FAIL source {name}: {e}", flush=True)
    with tempfile.TemporaryDirectory(prefix="geonews-webmap-") as work:
        ctx = Context(args.serve, args.out, work)
        missing = missing_routes(ctx.server)
        try:
            for size in sizes:
                ctx.size = size
                for scenario in SCENARIOS:
                    name = scenario.__name__.removeprefix("scenario_")
                    if args.only and args.only not in name:
                        continue
                    lacking = [r for r in getattr(scenario, "routes", ()) if r in missing]
                    if lacking:
                        blocked[name] = lacking
                        print(f"NOT RUN {size[0]}x{size[1]} {name}: the server has no {', '.join(lacking)} yet", flush=True)
                        continue
                    # A fresh browser profile each time: no token, no "already asked" flag.
                    driver = chromium(size)
                    try:
                        set_size(driver, size)
                        detail = scenario(ctx, driver)
                        passed += 1
                        print(f"PASS {size[0]}x{size[1]} {name}: {detail}", flush=True)
                    except Exception as e:  # noqa: BLE001 - every failure is reported, then the next runs
                        failed += 1
                        print(f"FAIL {size[0]}x{size[1]} {name}: {e}", flush=True)
                        if not isinstance(e, AssertionError):
                            traceback.print_exc()
                        ctx.screenshot(driver, f"FAILED-{name}")
                    finally:
                        driver.quit()
        finally:
            ctx.stop()
    if blocked:
        print(f"webmap: {len(blocked)} scenarios not run, blocked on routes the server lacks: "
              + "; ".join(f"{n} ({', '.join(r)})" for n, r in blocked.items()))
    print(f"webmap: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
