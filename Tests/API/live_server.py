"""A real geonews-serve on an ephemeral loopback port, with its own state directory, for the
API checks in this folder. Google News and GDELT are loopback servers answering every request
with the provider fixtures of Tests/GeoNewsHeadlinesTests; NewsAPI and GNews are unroutable."""
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


FIXTURES = os.path.join(ROOT, "Tests", "GeoNewsHeadlinesTests", "Fixtures")


def fixture_server(name, content_type):
    """A loopback HTTP server answering every GET with one fixture file, on its own thread."""
    with open(os.path.join(FIXTURES, name), "rb") as f:
        body = f.read()

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class LiveServer:
    def __init__(self, executable, extra_arguments=()):
        self.state = tempfile.mkdtemp(prefix="geonews-api-")
        self.providers = [fixture_server("google-news-fr.xml", "application/rss+xml; charset=utf-8"),
                          fixture_server("gdelt-at.json", "application/json")]
        env = dict(os.environ)
        env["GEONEWS_DATA"] = os.path.join(ROOT, "Data")
        for name in ("NEWSAPI", "GNEWS"):
            env[f"GEONEWS_{name}_URL"] = "http://127.0.0.1:9"
        for name, provider in zip(("GOOGLE_NEWS", "GDELT"), self.providers):
            env[f"GEONEWS_{name}_URL"] = f"http://127.0.0.1:{provider.server_address[1]}"
        for name in ("NEWSAPI_KEY", "GNEWS_API_KEY", "GEONEWS_CONFIG"):
            env.pop(name, None)
        env["XDG_CONFIG_HOME"] = os.path.join(self.state, "config")
        env["GEONEWS_CACHE_DIR"] = os.path.join(self.state, "cache")
        self.process = subprocess.Popen(
            [executable, "--port", "0", "--state-dir", self.state, *extra_arguments],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.process.stdout.readline().decode()
        if "listening on " not in line:
            self.process.kill()
            raise RuntimeError(f"geonews-serve did not start: {line} {self.process.stderr.read().decode()}")
        self.base = line.split("listening on ", 1)[1].strip()

    def get(self, path, headers=None):
        """(status, headers, body) of a GET, whatever the status."""
        return self.request("GET", path, headers=headers)

    def request(self, method, path, body=None, headers=None):
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        for provider in self.providers:
            provider.shutdown()
        shutil.rmtree(self.state, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
