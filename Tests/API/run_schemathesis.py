"""schemathesis (pinned in Tests/API/requirements.txt) against a live geonews-serve, from the
spec it serves at /openapi.yaml: every operation, with a real user's bearer token, checked for
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
    with LiveServer(executable) as server:
        status, _, body = server.request("POST", "/v1/users")
        assert status == 201, (status, body)
        token = json.loads(body)["token"]
        run = subprocess.run(cwd=server.state, args=[
            schemathesis, "run", server.base + "/openapi.yaml", "--url", server.base,
            "--checks", CHECKS, "--max-examples", examples, "--seed", "1",
            "--header", f"Authorization: Bearer {token}", "--no-color",
            "--request-timeout", "20", "--workers", "2", "--generation-database", "none",
            "--report-dir", os.path.join(server.state, "schemathesis"),
        ], env=dict(os.environ, SCHEMATHESIS_HOOKS=""))
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
