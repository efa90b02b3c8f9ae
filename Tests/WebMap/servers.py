"""A real geonews-serve on a loopback port, started and stopped by the scenarios."""
import json
import os
import socket
import subprocess
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class GeoNewsServer:
    """`geonews-serve --host 127.0.0.1 --port P --state-dir DIR`, its providers pointed at
    `providers` (scheme://host:port), its headline cache in its own folder."""

    def __init__(self, binary, root, state_dir, providers, port=None, config=None):
        self.binary, self.root, self.state_dir, self.providers = binary, root, state_dir, providers
        # No keys: Google News only, as for a user without keys.
        self.config = config or {"providers": ["google-news"]}
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.log_path = os.path.join(state_dir, "serve.log")

    def start(self):
        os.makedirs(self.state_dir, exist_ok=True)
        config = os.path.join(self.state_dir, "config.json")
        with open(config, "w") as f:
            json.dump(self.config, f)
        env = dict(os.environ,
                   GEONEWS_GOOGLE_NEWS_URL=self.providers, GEONEWS_NEWSAPI_URL=self.providers,
                   GEONEWS_GNEWS_URL=self.providers,
                   GEONEWS_CACHE_DIR=os.path.join(self.state_dir, "cache"),
                   GEONEWS_CONFIG=config,
                   GEONEWS_DATA=os.path.join(self.root, "Data"))
        for key in ("NEWSAPI_KEY", "GNEWS_API_KEY"):
            env.pop(key, None)
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.binary, "--host", "127.0.0.1", "--port", str(self.port), "--state-dir", self.state_dir],
            cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"geonews-serve exited with {self.process.returncode}; see {self.log_path}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"geonews-serve did not answer /healthz; see {self.log_path}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self):
        self.stop()
        return self.start()
