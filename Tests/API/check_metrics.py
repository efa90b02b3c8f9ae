"""Reads geonews-serve's /metrics with PyPI's prometheus_client text parser (pinned in
Tests/API/requirements.txt) and checks Prometheus's naming conventions: counters end in
_total, durations are in _seconds, every family has HELP, the request-duration buckets start
well below the 5 ms p99 target, and the process families are there.

    python3 Tests/API/check_metrics.py .build/debug/geonews-serve

Prints one line per check and exits 1 on the first failure."""
import sys

from prometheus_client.parser import text_string_to_metric_families

from live_server import LiveServer

PROCESS = ["process_cpu_seconds", "process_resident_memory_bytes", "process_virtual_memory_bytes",
           "process_open_fds", "process_max_fds", "process_start_time_seconds"]


def main():
    executable = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geonews-serve"
    with LiveServer(executable) as server:
        # Requests answered on the event loop and through the router, and a problem.
        for path in ["/v1/resolve?lat=48.8566&lon=2.3522", "/v1/clusters?altitude=15000km",
                     "/v1/countries/fr", "/v1/resolve?lat=91&lon=0"]:
            server.get(path)
        status, headers, body = server.get("/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain"), (status, headers)
        families = {f.name: f for f in text_string_to_metric_families(body.decode())}
    for family in families.values():
        assert family.documentation, f"{family.name} has no HELP"
        if family.type == "counter":
            assert all(s.name.endswith("_total") or s.name.endswith("_created") for s in family.samples), family
        if family.type == "histogram":
            assert family.name.endswith("_seconds"), family.name
    print(f"ok: {len(families)} families, each with HELP; counters end in _total, histograms in _seconds")

    requests = families["http_server_requests"]
    assert requests.type == "counter", requests.type
    routes = {(s.labels["http_route"], s.labels["http_response_status_code"]): s.value for s in requests.samples}
    assert routes[("/v1/resolve", "200")] == 1 and routes[("/v1/clusters", "200")] == 1, routes
    assert routes[("/v1/countries/{iso2}", "200")] == 1 and routes[("/v1/resolve", "400")] == 1, routes
    print(f"ok: http_server_requests_total counts both paths: {sorted(routes.items())}")

    duration = families["http_server_request_duration_seconds"]
    bounds = sorted({float(s.labels["le"]) for s in duration.samples if s.name.endswith("_bucket")})
    assert bounds[0] <= 0.001 and 0.005 in bounds, bounds
    print(f"ok: duration buckets start at {bounds[0] * 1000:g} ms: {bounds}")

    for name in PROCESS:
        assert name in families and families[name].samples[0].value > 0, name
    print("ok: process families " + ", ".join(f"{n}={families[n].samples[0].value:g}" for n in PROCESS))
    print("metrics: all checks passed")


if __name__ == "__main__":
    main()
