"""schemathesis (pinned in Tests/API/requirements.txt) against a live geonews-serve, from the
spec it serves at /openapi.yaml, with a real user's bearer token (a fresh user for each run),
checked for server errors and for answers the spec does not allow (status, content type,
headers, schema). Three runs:

1. every operation on its own (the examples, coverage and fuzzing phases), but
   DELETE /v1/users/me;
2. DELETE /v1/users/me alone, with another user;
3. the stateful phase: chains of calls along the spec's OpenAPI links (a dataset uploaded,
   then clustered, tiled and deleted; a favourite saved, then listed and deleted; a cluster
   found, then its children, leaves and expansion zoom), with the ids the server returned.
   It is bounded by --stateful-examples and, as a backstop, killed after STATEFUL_SECONDS.

    python3 Tests/API/run_schemathesis.py .build/debug/geonews-serve [--max-examples N] [--stateful-examples N]

Exits 0 when nothing failed, else the first failing run's status."""
import json
import os
import subprocess
import sys

from live_server import LiveServer

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance"
STATEFUL_SECONDS = 150


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    executable = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geonews-serve"
    examples = option("--max-examples", "100")
    stateful_examples = option("--stateful-examples", "100")
    schemathesis = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    # The write limit is raised so that the run exercises the routes rather than the 429s
    # (which the spec allows and WriteRateLimitTests checks).
    with LiveServer(executable, ["--write-rate", "10000", "--write-burst", "10000"]) as server:
        def run(phases, count, *selection, timeout=None):
            status, _, body = server.request("POST", "/v1/users")
            assert status == 201, (status, body)
            token = json.loads(body)["token"]
            return subprocess.run(cwd=server.state, timeout=timeout, args=[
                schemathesis, "run", server.base + "/openapi.yaml", "--url", server.base,
                "--phases", phases, "--checks", CHECKS, "--max-examples", count, "--seed", "1",
                "--header", f"Authorization: Bearer {token}", "--no-color",
                "--request-timeout", "20", "--workers", "2", "--generation-database", "none",
                "--report-dir", os.path.join(server.state, "schemathesis-" + phases.replace(",", "-")),
                *selection,
            ], env=dict(os.environ, SCHEMATHESIS_HOOKS="")).returncode

        # DELETE /v1/users/me ends its token: every other operation first, then that one alone
        # with another user.
        stateless = run("examples,coverage,fuzzing", examples, "--exclude-operation-id", "deleteCurrentUser")
        stateless = stateless or run("examples,coverage,fuzzing", examples, "--include-operation-id", "deleteCurrentUser")
        try:
            stateful = run("stateful", stateful_examples, "--exclude-operation-id", "deleteCurrentUser",
                           timeout=STATEFUL_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"schemathesis: the stateful phase ran past {STATEFUL_SECONDS} s and was stopped", file=sys.stderr)
            stateful = 1
    return stateless or stateful


if __name__ == "__main__":
    sys.exit(main())
