#!/usr/bin/env python3
"""What geonews-serve does with slow clients, late bodies and SIGTERM, measured on loopback.

Usage: Benchmarks/front-door.py [path/to/geonews-serve]   (default .build/release/geonews-serve)

Prints, for each scenario, the figures docs/server-promises.md quotes. Standard library only;
the server runs with its own state directory on 127.0.0.1 and is stopped at the end.
"""
import json, os, signal, socket, statistics, subprocess, sys, tempfile, threading, time

SERVE = sys.argv[1] if len(sys.argv) > 1 else ".build/release/geonews-serve"
DATA = os.environ.get("GEONEWS_DATA", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Data"))


def start(*options):
    state = tempfile.mkdtemp(prefix="geonews-front-door-")
    env = dict(os.environ, GEONEWS_DATA=DATA)
    process = subprocess.Popen([SERVE, "--port", "0", "--state-dir", state, *options], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    return process, int(line.rsplit(":", 1)[1])


def connect(port):
    return socket.create_connection(("127.0.0.1", port))


def exchange(port, request, timeout=10):
    """The whole answer to one request on its own connection, and the seconds it took."""
    began = time.monotonic()
    with connect(port) as s:
        s.settimeout(timeout)
        s.sendall(request.encode())
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except socket.timeout:
            pass
    return answer, time.monotonic() - began


def new_token(port):
    answer, _ = exchange(port, "POST /v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])["token"]


def body_head(method, path, kind, token, length=1_000_000):
    return (f"{method} {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: {kind}\r\nContent-Length: {length}\r\n\r\n")


ROUTES = [("POST", "/v1/resolve", "text/csv", "lat,lon\n48.8566,2.3522\n"),
          ("POST", "/v1/resolve?outputFormat=geojson", "application/x-ndjson", '{"lat":48.8566,"lon":2.3522}\n'),
          ("POST", "/v1/datasets", "text/csv", "lat,lon\n48.8566,2.3522\n"),
          ("POST", "/v1/favourites", "application/json", '{"url":"https://example.org/a","title":"'),
          ("PUT", "/v1/settings", "application/json", '{"newsCountry":"'),
          ("POST", "/v1/users", "application/json", "{")]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def slow_clients(count=30, probes=50):
    process, port = start("--header-timeout", "60", "--idle-timeout", "60", "--body-timeout", "60")
    token = new_token(port)
    slow = []
    for i in range(count):
        s = connect(port)
        if i % 10 == 0:
            s.sendall(b"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        else:
            method, path, kind, opening = ROUTES[2 + i % 4] if i % 10 in (1, 2) else ROUTES[i % 2]
            s.sendall((body_head(method, path, kind, token) + opening).encode())
        slow.append(s)
    stop = threading.Event()

    def drip():
        while not stop.is_set():
            for s in slow:
                try:
                    s.send(b"7")
                except OSError:
                    pass
            time.sleep(0.25)
    threading.Thread(target=drip, daemon=True).start()
    time.sleep(0.5)
    csv = "lat,lon\n48.8566,2.3522\n-33.8688,151.2093\n"
    requests = {
        "GET /healthz": "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /v1/resolve": "GET /v1/resolve?lat=48.8566&lon=2.3522 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "POST /v1/resolve": f"POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: {len(csv)}\r\nConnection: close\r\n\r\n{csv}",
    }
    print(f"{count} slow clients (a byte every 250 ms each; 3 slow heads, 6 slow JSON or upload bodies, 21 slow batch bodies):")
    for name, request in requests.items():
        times, ok = [], 0
        for _ in range(probes):
            answer, seconds = exchange(port, request)
            ok += answer.startswith(b"HTTP/1.1 200")
            times.append(seconds * 1000)
        print(f"  {name:17} {ok}/{probes} answered 200; median {statistics.median(times):.1f} ms, "
              f"p99 {percentile(times, 99):.1f} ms, max {max(times):.1f} ms")
    stop.set()

    def held(s):
        try:
            return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False
    open_count = sum(1 for s in slow if held(s))
    process.send_signal(signal.SIGTERM)
    process.wait()
    print(f"  slow connections still held at the end: {open_count}")


def body_deadline():
    process, port = start("--body-timeout", "2", "--body-min-rate", "0")
    token = new_token(port)
    method, path, kind, opening = ROUTES[3]
    with connect(port) as s:
        began = time.monotonic()
        s.sendall((body_head(method, path, kind, token, length=10_000) + opening).encode())
        s.settimeout(0.5)
        answer = b""
        while time.monotonic() - began < 20:
            try:
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
            except socket.timeout:
                try:
                    s.send(b"7")
                except OSError:
                    break
        status = answer.split(b"\r\n", 1)[0].decode()
        print(f"A body dripping a byte every 500 ms, --body-timeout 2 --body-min-rate 0: '{status}' and closed "
              f"after {time.monotonic() - began:.2f} s")
    process.send_signal(signal.SIGTERM)
    process.wait()


def sigterm(deadline=5):
    process, port = start("--shutdown-timeout", str(deadline), "--body-timeout", "120")
    token = new_token(port)
    method, path, kind, opening = ROUTES[3]
    trickler = connect(port)
    trickler.sendall((body_head(method, path, kind, token, length=10_000) + opening).encode())
    idle = connect(port)
    idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    idle.recv(65536)
    stop = threading.Event()
    answer = []

    def trickle():
        trickler.settimeout(0.3)
        while not stop.is_set():
            try:
                chunk = trickler.recv(65536)
                if not chunk:
                    return
                answer.append(chunk)
            except socket.timeout:
                try:
                    trickler.send(b"7")
                except OSError:
                    return
    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    time.sleep(0.5)
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    idle.settimeout(10)
    idle_closed = idle.recv(1) == b"" and time.monotonic() - began
    status = process.wait(timeout=deadline + 30)
    exited = time.monotonic() - began
    stop.set()
    thread.join(2)
    first = b"".join(answer).split(b"\r\n", 1)[0].decode()
    print(f"SIGTERM with --shutdown-timeout {deadline}: an idle keep-alive connection closed after {idle_closed:.2f} s; "
          f"a trickling body answered '{first}'; exit status {status} after {exited:.2f} s")


def http10():
    process, port = start("--idle-timeout", "30")
    answer, seconds = exchange(port, "GET /healthz HTTP/1.0\r\n\r\n")
    status = answer.split(b"\r\n", 1)[0].decode()
    print(f"HTTP/1.0 GET /healthz: '{status}', closed by the server after {seconds * 1000:.1f} ms "
          f"(--idle-timeout 30)")
    process.send_signal(signal.SIGTERM)
    process.wait()


if __name__ == "__main__":
    print(f"{SERVE}, {os.cpu_count()} cores")
    slow_clients()
    body_deadline()
    sigterm()
    http10()
