"""schemathesis (pinned in Tests/API/requirements.txt) against a live geonews-serve, from the
spec it serves at /openapi.yaml: every operation, with a real user's bearer token (a second
user for DELETE /v1/users/me, which ends the token), checked for
server errors and for answers the spec does not allow (status, content type, headers, schema).

    python3 Tests/API/run_schemathesis.py .build/debug/geonews-serve [--max-examples N]

Exits with schemathesis' status: 0 when nothing failed."""
import json
import os
import subprocess
import sys

from live_server import LiveServer

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance"


def main():
    executable = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/geonews-serve"
    examples = sys.argv[sys.argv.index("--max-examples") + 1] if "--max-examples" in sys.argv else "100"
    schemathesis = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    # The write limit is raised so that the run exercises the routes rather than the 429s
    # (which the spec allows and WriteRateLimitTests checks).
    with LiveServer(executable, ["--write-rate", "10000", "--write-burst", "10000"]) as server:
        def run(*selection):
            status, _, body = server.request("POST", "/v1/users")
            assert status == 201, (status, body)
            token = json.loads(body)["token"]
            return subprocess.run(cwd=server.state, args=[
                schemathesis, "run", server.base + "/openapi.yaml", "--url", server.base,
                "--checks", CHECKS, "--max-examples", examples, "--seed", "1",
                "--header", f"Authorization: Bearer {token}", "--no-color",
                "--request-timeout", "20", "--workers", "2", "--generation-database", "none",
                "--report-dir", os.path.join(server.state, "schemathesis"), *selection,
            ], env=dict(os.environ, SCHEMATHESIS_HOOKS="")).returncode
        # DELETE /v1/users/me ends its token: every other operation first with one user, then
        # that one alone with another.
        status = run("--exclude-operation-id", "deleteCurrentUser")
        return status or run("--include-operation-id", "deleteCurrentUser")


if __name__ == "__main__":
    sys.exit(main())
