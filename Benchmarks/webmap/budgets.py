"""The web map's budgets (issue 14), measured in headless Chromium with the Performance API
against a real geonews-serve on loopback (a release build), the providers at the loopback
fixtures:

- first markers on screen within 1 s of navigation (performance.mark 'geonews:first-markers'
  relative to the navigation start), median of the cold loads;
- total transfer of the first view <= 1.5 MB compressed (the navigation and every resource's
  transferSize, base map and Leaflet included);
- every pan or zoom answered by the server in <= 10 ms (responseStart - requestStart of each
  /v1/clusters request, after keyboard pans and zooms on the map).

    Tests/WebMap/.venv/bin/python Benchmarks/webmap/budgets.py --serve .build/release/geonews-serve [--loads 10 --moves 40]
"""
import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests/WebMap"))

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from browser import DESKTOP, chromium, wait_for, wait_until_settled  # noqa: E402
from fixture_server import ProviderFixtureServer  # noqa: E402
from servers import GeoNewsServer  # noqa: E402

FIRST_VIEW = """
const nav = performance.getEntriesByType('navigation')[0];
const resources = performance.getEntriesByType('resource');
const mark = performance.getEntriesByName('geonews:first-markers')[0];
return {firstMarkersMs: mark ? mark.startTime : null,
        transfer: nav.transferSize + resources.reduce((s, r) => s + r.transferSize, 0),
        decoded: nav.decodedBodySize + resources.reduce((s, r) => s + r.decodedBodySize, 0),
        resources: resources.map(r => [r.name.replace(location.origin, ''), r.transferSize])};
"""
CLUSTER_TIMES = """
return performance.getEntriesByType('resource').filter(r => r.name.includes('/v1/clusters'))
  .map(r => r.responseStart - r.requestStart);
"""
# The floor beside it: the same measure for the server's cheapest answer (GET /healthz), asked
# as many times from the same page, one after another.
FLOOR_TIMES = """
const done = arguments[arguments.length - 1];
(async () => {
  performance.clearResourceTimings();
  for (let i = 0; i < arguments[0]; i++) await (await fetch('/healthz?' + i, {cache: 'no-store'})).text();
  done(performance.getEntriesByType('resource').filter(r => r.name.includes('/healthz'))
    .map(r => r.responseStart - r.requestStart));
})();
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", default=str(ROOT / ".build/release/geonews-serve"))
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    providers = ProviderFixtureServer()
    with tempfile.TemporaryDirectory(prefix="geonews-budgets-") as work:
        server = GeoNewsServer(args.serve, str(ROOT), work, providers.url).start()
        try:
            first, transfers = [], []
            for _ in range(args.loads):
                driver = chromium(DESKTOP)  # a fresh profile: nothing cached
                try:
                    driver.get(server.url + "/")
                    wait_for(driver, lambda d: d.execute_script(
                        "return performance.getEntriesByName('geonews:first-markers').length"), what="first markers")
                    time.sleep(1.0)  # let the base map finish loading before the transfer is summed
                    v = driver.execute_script(FIRST_VIEW)
                    first.append(v["firstMarkersMs"])
                    transfers.append(v)
                finally:
                    driver.quit()
            driver = chromium(DESKTOP)
            try:
                driver.get(server.url + "/")
                wait_until_settled(driver)
                driver.execute_script("performance.clearResourceTimings()")
                m = driver.find_element(By.ID, "map")
                keys = [Keys.ARROW_RIGHT, Keys.ARROW_DOWN, "+", Keys.ARROW_LEFT, "+", Keys.ARROW_UP, "-", Keys.ARROW_RIGHT]
                for i in range(args.moves):
                    m.send_keys(keys[i % len(keys)])
                    wait_until_settled(driver)
                answers = driver.execute_script(CLUSTER_TIMES)
                floor = driver.execute_async_script(FLOOR_TIMES, args.moves)
            finally:
                driver.quit()
        finally:
            server.stop()
            providers.stop()
    last = transfers[-1]
    print(f"first markers after navigation: median {statistics.median(first):.0f} ms, max {max(first):.0f} ms "
          f"over {len(first)} cold loads (budget 1000 ms)")
    print(f"first view transfer: {last['transfer']:,} bytes compressed ({last['decoded']:,} decoded), "
          f"{len(last['resources'])} resources (budget 1,500,000)")
    for name, size in sorted(last["resources"], key=lambda r: -r[1])[:6]:
        print(f"    {size:>9,}  {name}")
    answers.sort()
    print(f"pan/zoom answers: {len(answers)} /v1/clusters requests, median {statistics.median(answers):.2f} ms, "
          f"p99 {answers[int(0.99 * (len(answers) - 1))]:.2f} ms, max {answers[-1]:.2f} ms (budget 10 ms each)")
    print(f"    floor: {len(floor)} GET /healthz from the same page, median {statistics.median(floor):.2f} ms, "
          f"max {max(floor):.2f} ms; clusters/floor median ratio {statistics.median(answers) / statistics.median(floor):.1f}")
    ok = statistics.median(first) <= 1000 and last["transfer"] <= 1_500_000 and answers[-1] <= 10
    print("budgets:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
