#!/usr/bin/env python3
"""A soak test: geonews-serve as it runs in service, for long enough that leaks show. Two
instances on one PostgreSQL behind nginx (Debian's) as a round-robin upstream, Google News
answered by a loopback stub in its exact RSS wire format (the fixtures of the Swift tests), and
a mixed load of what a web map's users ask through nginx: resolutions, clusters, vector tiles,
headlines, and, each with a token of their own, favourites, settings and uploaded datasets.

1. The maximum: every connection sends its next request as soon as the last is answered
   (closed loop) for 15 s, after 3 s of warm-up.
2. The soak: each connection sends on a schedule of its own (open loop), together at half that
   maximum, for --minutes; every --report-every seconds one line of figures (see
   Benchmarks/README-soak.md for what each column means).
3. The checks, the first report interval being the warm-up: each instance's heap (RssAnon; in
   runs of 10 minutes or more) and descriptors other than connections, the least read over the
   last half of the intervals after the warm-up at most 10 % above the least over the first
   half (the answer caches make the heap a sawtooth; the feet of its teeth are compared);
   comparing the last interval with the first after the warm-up: the paced rate held (at
   least 90 % of it answered); p99 over all routes at most 1.5x (or at most 1 ms higher); no
   answer other than 2xx (so no 5xx); no lost write: every favourite, dataset and setting
   answered 2xx, and not deleted, is listed exactly once through each instance, and every one
   deleted is gone, its files included.

Usage: soak.py --serve PATH --store postgres://… [--pg-ctl PATH] [--minutes 30] [--report-every 300]
Benchmarks/soak.sh starts the throw-away PostgreSQL and runs this. Prints the figures and
"soak: passed" or "soak: FAILED: …"; exit 0 or 1 (64 for bad options, 130 when interrupted).
"""
import argparse
import http.client
import json
import math
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from urllib.parse import urlsplit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Postgres"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "WebMap"))
from failover import free_port, nginx_head, report, request, start_server, stop_server, wait_until_up  # noqa: E402
from fixture_server import ProviderFixtureServer  # noqa: E402

# The load: routes and their share per 1,000 requests. Reads dominate, as for a map's users;
# about one request in seven writes. A route's name is its column in the report.
MIX = [
    ("resolve", 300),      # GET /v1/resolve at a random position (each answer worked out)
    ("clusters", 150),     # GET /v1/clusters of the markers, one of VIEWS
    ("tiles", 150),        # GET /v1/tiles/z/x/y.mvt of the markers, z 0…4
    ("news", 100),         # GET /v1/headlines?country=fr, from the stub through the server's cache
    ("fav.save", 60),      # POST /v1/favourites (a delete instead when the user has FAVOURITES)
    ("fav.list", 50),      # GET /v1/favourites?limit=50, checked against the user's ledger
    ("fav.del", 30),       # DELETE /v1/favourites/{id}
    ("set.put", 25),       # PUT /v1/settings
    ("set.get", 40),       # GET /v1/settings, checked against the last PUT
    ("ds.upload", 10),     # POST /v1/datasets, a CSV of 100…300 points (a delete instead at DATASETS)
    ("ds.clusters", 50),   # GET /v1/clusters?dataset= one of the user's
    ("ds.list", 25),       # GET /v1/datasets, checked against the user's ledger
    ("ds.del", 10),        # DELETE /v1/datasets/{id}
]
ROUTES = [name for name, _ in MIX]
FAVOURITES = 200   # favourites a user keeps at most, so that the soak runs in a steady state
DATASETS = 3       # datasets a user keeps at most
PROCESSES = 2      # client processes (one Python thread each is not enough for 2 cores)
THREADS = 8        # connections per process; one user each
MAXIMUM_SECONDS, MAXIMUM_WARM_UP = 15, 3
SHARE = 0.5        # the soak's rate, of the maximum
WATCH_SECONDS = 5  # between two readings of the instances' heap and descriptors
# The shortest run whose heap is checked: the answer caches (up to 48 MB an instance, emptied
# when full) and the allocator's arenas are still filling in the first minutes, so a shorter run
# (Scripts/test's two minutes) reports the heap but checks only the descriptors.
HEAP_CHECK_MINUTES = 10
HEADLINE_TTL = 30  # seconds the server caches a headline answer, so the stub is asked all along
CATEGORIES = [None, "business", "entertainment", "general", "health", "science", "sports", "technology"]
SETTINGS = [("fr", "fr", "fr"), ("de", "de", "de"), ("gb", "en", "en"), ("jp", "ja", "ja"), ("it", "it", "it"),
            ("at", "de", "de")]  # (newsCountry, newsLanguage, namesLanguage)


def marker_views(count=200, seed=36):
    """Queries of /v1/clusters: the whole world from 15,000 km, then windows of two tiles'
    width at zooms 1…8. A fixed few, so that the server's answer cache holds them all after
    the warm-up and its memory is steady (a view never asked before costs no more to answer)."""
    chance, views = random.Random(seed), ["altitude=15000km"]
    while len(views) < count:
        lon, lat, z = chance.uniform(-180, 180), chance.uniform(-60, 70), chance.randint(1, 8)
        west, east = lon - 180 / 2 ** z, lon + 180 / 2 ** z
        south, north = max(-85, lat - 90 / 2 ** z), min(85, lat + 90 / 2 ** z)
        views.append(f"bbox={west:.3f},{south:.3f},{east:.3f},{north:.3f}&zoom={z}")
    return views


VIEWS = marker_views()


# ---- the client: connections, users and what each user was answered ----

class Ledger:
    """What one user was answered for their writes, to check against what the store lists."""

    def __init__(self, token):
        self.token = token
        self.favourites = {}          # id → url: saved (2xx) and not deleted
        self.deleted_favourites = {}  # id → url: deleted (204)
        self.uncertain = set()        # urls of saves and deletes that got no 2xx: either outcome is right
        self.saves = 0
        self.datasets = []            # ids, oldest first: uploaded (201) and not deleted
        self.deleted_datasets = []
        self.uncertain_datasets = set()
        self.failed_uploads = 0
        self.settings = None          # the last settings answered 2xx
        self.settings_uncertain = False
        self.stale_reads = []         # reads through nginx that missed an acknowledged write


class Interval:
    """Latencies (ms) per route, answers by status, and the first failures, of one interval."""

    def __init__(self):
        self.latencies = defaultdict(list)
        self.statuses = Counter()
        self.failures = []
        self.late = 0.0               # the most a paced request was sent behind its schedule, s

    def merge(self, other):
        for route, values in other.latencies.items():
            self.latencies[route].extend(values)
        self.statuses.update(other.statuses)
        self.failures.extend(other.failures[: max(0, 10 - len(self.failures))])
        self.late = max(self.late, other.late)


class Recorder:
    """The interval under way, shared by a process's threads and swapped at each report."""

    def __init__(self):
        self.lock = threading.Lock()
        self.current = Interval()

    def record(self, route, status, ms, detail):
        with self.lock:
            self.current.latencies[route].append(ms)
            self.current.statuses[status] += 1
            if not 200 <= status < 300 and len(self.current.failures) < 10:
                self.current.failures.append(f"{route} {status} {detail[:160]!r}")

    def late(self, seconds):
        with self.lock:
            self.current.late = max(self.current.late, seconds)

    def swap(self):
        with self.lock:
            done, self.current = self.current, Interval()
        return done


class Client:
    """One keep-alive connection to nginx and the one user whose requests it sends, so that no
    other thread writes that user's ledger."""

    def __init__(self, front, token, seed, recorder):
        self.connection = http.client.HTTPConnection("127.0.0.1", front, timeout=30)
        self.ledger = Ledger(token)
        self.random = random.Random(seed)
        self.seed = seed
        self.recorder = recorder
        self.routes, self.weights = ROUTES, [w for _, w in MIX]

    def send(self, route, method, path, body=None, content_type="application/json", user=False):
        """(status, body bytes) of one request, with the user's token when `user` (as the web
        map sends it: only to the user's own routes, since the server checks a token against
        the store); status 0 when the connection failed. Recorded under `route`."""
        headers = {"Authorization": f"Bearer {self.ledger.token}"} if user else {}
        if body is not None:
            headers["Content-Type"] = content_type
        began = time.perf_counter()
        try:
            self.connection.request(method, path, body=body, headers=headers)
            answer = self.connection.getresponse()
            status, data = answer.status, answer.read()
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()  # the next request opens a new one
            status, data = 0, f"{type(error).__name__}: {error}".encode()
        self.recorder.record(route, status, (time.perf_counter() - began) * 1000, data)
        return status, data

    def step(self):
        """Sends one request of the mix."""
        getattr(self, "do_" + self.random.choices(self.routes, self.weights)[0].replace(".", "_"))()

    def closed(self, until):
        while time.monotonic() < until:
            self.step()

    def paced(self, rate, start, until):
        """One request every 1/rate s from a random phase, whatever the answers take: a late
        answer makes the next requests go at once, so the rate holds (open loop). What is still
        due at `until` is dropped, so the run ends on time however far behind it fell."""
        gap = 1 / rate
        due = start + self.random.random() * gap
        while due < until and time.monotonic() < until:
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            else:
                self.recorder.late(-wait)
            self.step()
            due += gap

    # -- reads that need no user --

    def do_resolve(self):
        self.send("resolve", "GET", f"/v1/resolve?lat={self.random.uniform(-80, 80):.5f}&lon={self.random.uniform(-180, 180):.5f}")

    def do_clusters(self):
        self.send("clusters", "GET", "/v1/clusters?" + self.random.choice(VIEWS))

    def do_tiles(self):
        z = self.random.randint(0, 4)
        self.send("tiles", "GET", f"/v1/tiles/{z}/{self.random.randrange(2 ** z)}/{self.random.randrange(2 ** z)}.mvt")

    def do_news(self):
        category = self.random.choice(CATEGORIES)
        self.send("news", "GET", f"/v1/headlines?country=fr&limit={self.random.choice((5, 10, 20))}"
                  + (f"&category={category}" if category else ""))

    # -- favourites --

    def do_fav_save(self):
        if len(self.ledger.favourites) >= FAVOURITES:
            return self.do_fav_del()
        self.ledger.saves += 1
        url = f"https://soak.example/{self.seed}/{self.ledger.saves}"
        status, data = self.send("fav.save", "POST", "/v1/favourites",
                                 json.dumps({"url": url, "title": f"Soak article {self.ledger.saves}", "source": "Soak"}), user=True)
        if status == 201:
            self.ledger.favourites[json.loads(data)["id"]] = url
        else:
            self.ledger.uncertain.add(url)

    def do_fav_list(self):
        status, data = self.send("fav.list", "GET", "/v1/favourites?limit=50", user=True)
        if status != 200 or self.ledger.uncertain:
            return
        listed = [f["id"] for f in json.loads(data)]
        expected = sorted(self.ledger.favourites, reverse=True)[:50]
        if listed != expected:
            self.ledger.stale_reads.append(f"GET /v1/favourites listed {len(listed)} ids, "
                                           f"{len(set(expected) - set(listed))} saved ones missing, "
                                           f"{len(set(listed) - set(expected))} not expected")

    def do_fav_del(self):
        if not self.ledger.favourites:
            return self.do_fav_save()
        favourite = self.random.choice(list(self.ledger.favourites))
        url = self.ledger.favourites.pop(favourite)
        status, _ = self.send("fav.del", "DELETE", f"/v1/favourites/{favourite}", user=True)
        if status == 204:
            self.ledger.deleted_favourites[favourite] = url
        else:
            self.ledger.uncertain.add(url)

    # -- settings --

    def do_set_put(self):
        country, language, names = self.random.choice(SETTINGS)
        settings = {"newsCountry": country, "newsLanguage": language,
                    "categories": self.random.sample(CATEGORIES[1:], self.random.randint(0, 3)), "namesLanguage": names}
        status, _ = self.send("set.put", "PUT", "/v1/settings", json.dumps(settings), user=True)
        if status == 200:
            self.ledger.settings, self.ledger.settings_uncertain = settings, False
        else:
            self.ledger.settings_uncertain = True

    def do_set_get(self):
        status, data = self.send("set.get", "GET", "/v1/settings", user=True)
        if status == 200 and self.ledger.settings and not self.ledger.settings_uncertain:
            got = json.loads(data)
            if any(got.get(k) != v for k, v in self.ledger.settings.items()):
                self.ledger.stale_reads.append(f"GET /v1/settings answered {got}, not the last PUT {self.ledger.settings}")

    # -- datasets --

    def do_ds_upload(self):
        if len(self.ledger.datasets) >= DATASETS:
            return self.do_ds_del()
        rows = "".join(f"{self.random.uniform(-60, 70):.5f},{self.random.uniform(-180, 180):.5f}\n"
                       for _ in range(self.random.randint(100, 300)))
        status, data = self.send("ds.upload", "POST", f"/v1/datasets?name=soak-{self.seed}", "lat,lon\n" + rows, "text/csv", user=True)
        if status == 201:
            self.ledger.datasets.append(json.loads(data)["id"])
        else:
            self.ledger.failed_uploads += 1

    def do_ds_clusters(self):
        if not self.ledger.datasets:
            return self.do_ds_upload()
        dataset = self.random.choice(self.ledger.datasets)
        self.send("ds.clusters", "GET", f"/v1/clusters?dataset={dataset}&bbox=-180,-85,180,85&zoom={self.random.randint(0, 4)}")

    def do_ds_list(self):
        status, data = self.send("ds.list", "GET", "/v1/datasets", user=True)
        if status != 200 or self.ledger.uncertain_datasets or self.ledger.failed_uploads:
            return
        listed = {d["id"] for d in json.loads(data)} - {"markers"}
        if listed != set(self.ledger.datasets):
            self.ledger.stale_reads.append(f"GET /v1/datasets listed {sorted(listed)}, uploaded and not deleted {self.ledger.datasets}")

    def do_ds_del(self):
        if not self.ledger.datasets:
            return self.do_ds_upload()
        dataset = self.ledger.datasets.pop(0)
        status, _ = self.send("ds.del", "DELETE", f"/v1/datasets/{dataset}", user=True)
        if status == 204:
            self.ledger.deleted_datasets.append(dataset)
        else:
            self.ledger.uncertain_datasets.add(dataset)


def run_clients(clients, method, *arguments):
    threads = [threading.Thread(target=getattr(c, method), args=arguments) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def client_process(pipe, front, tokens, seed):
    """One client process: THREADS connections, each with its user, doing what the parent asks
    through `pipe`: ("closed", until), ("paced", rate per connection, start, boundaries),
    ("ledgers",), ("stop",). Intervals go back through `pipe` as they end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it
    recorder = Recorder()
    clients = [Client(front, token, seed + n, recorder) for n, token in enumerate(tokens)]
    while True:
        command = pipe.recv()
        if command[0] == "closed":
            recorder.swap()
            run_clients(clients, "closed", command[1])
            pipe.send(recorder.swap())
        elif command[0] == "paced":
            _, rate, start, boundaries = command
            recorder.swap()

            def reports():
                for boundary in boundaries[:-1]:
                    time.sleep(max(0.0, boundary - time.monotonic()))
                    pipe.send(recorder.swap())
            reporter = threading.Thread(target=reports)
            reporter.start()
            run_clients(clients, "paced", rate, start, boundaries[-1])
            reporter.join()
            pipe.send(recorder.swap())  # the last interval, its answers all in
        elif command[0] == "ledgers":
            pipe.send([c.ledger for c in clients])
        else:
            return


# ---- what the machine shows: /proc and pg_stat_activity ----

def proc_stats():
    """pid → (parent pid, CPU ticks used) of every process."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                table[int(name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
            except (OSError, IndexError, ValueError):
                pass
    return table


def family(table, root):
    """`root` and its descendants in `table`."""
    members, grown = {root}, True
    while grown:
        more = {pid for pid, (parent, _) in table.items() if parent in members} - members
        members |= more
        grown = bool(more)
    return members


def busy_and_idle():
    """The machine's (busy, idle) ticks so far, all cores (/proc/stat)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]
    return sum(ticks[:8]) - idle, idle


def status_field(pid, name):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


def connections():
    """Socket inode → (local port, remote port) of every established TCP connection on
    loopback (/proc/net/tcp)."""
    table = {}
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if fields[3] == "01":
                table[fields[9]] = (int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16))
    return table


class Instance:
    """One geonews-serve of the soak, started by failover.start_server in a folder of its own."""

    def __init__(self, name, serve, folder, store, extra):
        self.name, self.folder = name, folder
        os.makedirs(folder)
        # Each its own headline cache, as on two machines.
        os.environ["GEONEWS_CACHE_DIR"] = os.path.join(folder, "cache")
        self.process, self.port, self.log = start_server(serve, folder, store, *extra)
        self.datasets = os.path.join(folder, "state", "datasets")

    def descriptors(self):
        """(descriptors, of them TCP connections open to nginx or PostgreSQL) now."""
        open_now, tcp = os.listdir(f"/proc/{self.process.pid}/fd"), connections()
        linked = 0
        for fd in open_now:
            try:
                target = os.readlink(f"/proc/{self.process.pid}/fd/{fd}")
            except OSError:  # closed meanwhile
                continue
            if target.startswith("socket:[") and target[8:-1] in tcp:
                linked += 1
        return len(open_now), linked

    def reading(self):
        """What the leak checks take, now: the heap (RssAnon, MB) and the descriptors that are
        not TCP connections (files, the event loops' own, pipes)."""
        fds, linked = self.descriptors()
        return {"heap": status_field(self.process.pid, "RssAnon") / 1024, "fd": fds - linked}

    def sample(self):
        """Now: RSS (MB), descriptors and of them TCP connections, threads, dataset archives
        mapped, files in datasets/."""
        pid = self.process.pid
        fds, linked = self.descriptors()
        with open(f"/proc/{pid}/maps") as f:
            mapped = {line.split()[-1] for line in f if "/datasets/" in line}
        return {"rss": status_field(pid, "VmRSS") / 1024, "all fd": fds, "conn": linked,
                "threads": status_field(pid, "Threads"), "mapped": len(mapped),
                "files": len(os.listdir(self.datasets)) if os.path.isdir(self.datasets) else 0}

    def log_tail(self, lines=5):
        self.log.flush()
        self.log.seek(0)
        return "".join(self.log.readlines()[-lines:]).strip()


class Floors:
    """The least heap and descriptors of each instance over an interval, read every
    WATCH_SECONDS on a thread of its own. A leak raises every reading; a cache that is emptied
    when full (the server's answer caches are) or a file an upload holds open for a moment
    raises only some, so the least reading of an interval is the one compared."""

    def __init__(self, instances):
        self.instances = instances
        self.lock = threading.Lock()
        self.current = {}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        while not self.stopped.wait(WATCH_SECONDS):
            self.read()

    def read(self):
        for i in self.instances:
            try:
                now = i.reading()
            except OSError:  # the instance is gone; the report says so
                continue
            with self.lock:
                least = self.current.setdefault(i.name, dict(now))
                for key, value in now.items():
                    least[key] = min(least[key], value)

    def swap(self):
        """The floors since the last swap (read once more now), and a new interval begun."""
        self.read()
        with self.lock:
            done, self.current = self.current, {}
        return done

    def stop(self):
        self.stopped.set()


def postgres_connections(store):
    """Backends connected to the soak's database, from pg_stat_activity, through psql."""
    url = urlsplit(store)
    answer = subprocess.run(
        ["psql", "-h", url.hostname, "-p", str(url.port or 5432), "-U", url.username, "-d", url.path.lstrip("/"), "-Atc",
         "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"],
        env=dict(os.environ, PGPASSWORD=url.password or ""), capture_output=True, text=True, timeout=30)
    return int(answer.stdout.strip()) if answer.returncode == 0 else -1


# ---- figures ----

def percentile(values, q):
    """Nearest-rank percentile of sorted `values`; NaN for none."""
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))] if values else float("nan")


def ms(value):
    return "–" if value != value else f"{value:.1f}" if value < 10 else f"{value:.0f}"


def errors_text(statuses):
    bad = sorted((s, n) for s, n in statuses.items() if not 200 <= s < 300)
    return " ".join(f"{s or 'conn'}×{n}" for s, n in bad) or "0"


class Table:
    """The report: one aligned line per sample."""

    def __init__(self, names):
        self.columns = [("min", 5), ("req/s", 6), ("late s", 6)]
        for n in names:
            self.columns += [(f"{n} rss", 6), (f"{n} heap", 6), (f"{n} fd", 4), (f"{n} conn", 6)]
        self.columns += [("pg", 3), ("load", 5), ("p50/p99 all", 11)]
        self.columns += [(r, max(len(r), 9)) for r in ROUTES] + [("errors", 6)]

    def header(self):
        return "  ".join(name.rjust(width) for name, width in self.columns)

    def line(self, values):
        return "  ".join(str(v).rjust(width) for v, (_, width) in zip(values, self.columns))


def interval_cells(interval):
    cells = []
    for route in ROUTES:
        values = sorted(interval.latencies.get(route, []))
        cells.append(f"{ms(percentile(values, 0.5))}/{ms(percentile(values, 0.99))}")
    return cells


def all_latencies(interval):
    return sorted(v for values in interval.latencies.values() for v in values)


# ---- the soak ----

class Soak:
    def __init__(self, options):
        self.options = options
        self.folder = tempfile.mkdtemp(prefix="geonews-soak-")
        os.chmod(self.folder, 0o755)  # nginx's worker (nobody) writes its temporary files here
        self.instances, self.workers, self.pipes = [], [], []
        self.nginx = self.stub = None
        self.front = free_port()
        self.problems, self.figures = [], []
        self.postmaster = None
        self.stale_once = 0  # deleted datasets an instance answered 200 once more (see listed_datasets)
        if options.pg_ctl:
            try:
                with open(os.path.join(os.path.dirname(options.pg_ctl), "data", "postmaster.pid")) as f:
                    self.postmaster = int(f.readline())
            except (OSError, ValueError):
                pass

    def say(self, text):
        print(f"soak: {text}", flush=True)

    # -- set-up and clean-up --

    def start(self):
        o = self.options
        self.stub = ProviderFixtureServer()
        config = os.path.join(self.folder, "config.json")
        with open(config, "w") as f:
            json.dump({"providers": ["google-news"], "cacheTTLSeconds": HEADLINE_TTL}, f)
        os.environ.update(GEONEWS_DATA=os.path.join(ROOT, "Data"), GEONEWS_CONFIG=config, GEONEWS_GOOGLE_NEWS_URL=self.stub.url,
                          GEONEWS_GDELT_URL="http://127.0.0.1:9", GEONEWS_NEWSAPI_URL="http://127.0.0.1:9",
                          GEONEWS_GNEWS_URL="http://127.0.0.1:9")
        for key in ("NEWSAPI_KEY", "GNEWS_API_KEY", "GEONEWS_STORE"):
            os.environ.pop(key, None)
        # nginx is the one client the instances see: it is trusted to name the real one, and the
        # write limits are raised past anything the soak sends, so that no answer is a 429.
        extra = ["--trusted-proxy", "127.0.0.1/32", "--write-rate", "1000000", "--write-burst", "1000000"]
        for name in ("A", "B"):  # started together on an empty database: their migrations race too
            self.instances.append(Instance(name, o.serve, os.path.join(self.folder, name), o.store, extra))
        for i in self.instances:
            if not wait_until_up(i.port):
                raise RunError(f"instance {i.name} did not answer /healthz in 30 s: {i.log_tail()}")
        with open(os.path.join(self.folder, "nginx.conf"), "w") as f:
            f.write(self.nginx_config())
        self.nginx = subprocess.Popen([o.nginx, "-p", self.folder, "-c", os.path.join(self.folder, "nginx.conf")],
                                      stderr=open(os.path.join(self.folder, "nginx.stderr"), "w"))
        for _ in range(100):
            if request(self.front, "GET", "/healthz")[0] == 200:
                break
            time.sleep(0.1)
        else:
            with open(os.path.join(self.folder, "nginx.stderr")) as f:
                raise RunError(f"nginx did not come up: {f.read().strip()[:300]}")

    def nginx_config(self):
        servers = "\n".join(f"        server 127.0.0.1:{i.port} max_fails=0;" for i in self.instances)
        return nginx_head(self.folder) + f"""    upstream geonews {{
{servers}
        # Connections to the instances are kept, as in service; nginx drops an idle one
        # before the instances' --idle-timeout (30 s) would, so none is closed under a request.
        keepalive 32;
        keepalive_timeout 20s;
    }}
    server {{
        listen 127.0.0.1:{self.front};
        location / {{
            proxy_pass http://geonews;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 60s;
            # A failed answer is the client's to see, not retried on the other instance.
            proxy_next_upstream off;
        }}
    }}
}}
"""

    def start_clients(self):
        tokens = []
        for _ in range(PROCESSES * THREADS):
            status, body, _ = request(self.front, "POST", "/v1/users")
            if status != 201:
                raise RunError(f"POST /v1/users answered {status}")
            tokens.append(body["token"])
        spawn = multiprocessing.get_context("spawn")  # no copy of this process's threads (the stub's)
        for p in range(PROCESSES):
            mine, theirs = spawn.Pipe()
            worker = spawn.Process(target=client_process, args=(theirs, self.front, tokens[p * THREADS:(p + 1) * THREADS], 1000 * (p + 1)),
                                   daemon=True)
            worker.start()
            self.workers.append(worker)
            self.pipes.append(mine)

    def collect(self):
        """One Interval from each client process, merged."""
        merged = Interval()
        for pipe, worker in zip(self.pipes, self.workers):
            if not pipe.poll(120):
                raise RunError(f"client process {worker.pid} sent nothing for 120 s (alive: {worker.is_alive()})")
            merged.merge(pipe.recv())
        return merged

    def stop(self):
        for pipe in self.pipes:
            try:
                pipe.send(("stop",))
            except OSError:
                pass
        deadline = time.monotonic() + 2  # idle ones return at once; busy ones (interrupted) are ended
        for worker in self.workers:
            worker.join(max(0.0, deadline - time.monotonic()))
            if worker.is_alive():
                worker.terminate()
                worker.join()
        if self.nginx:
            self.nginx.terminate()
            self.nginx.wait()
        secret = urlsplit(self.options.store).password
        for i in self.instances:
            self.problems += [f"instance {i.name}: {p}" for p in stop_server(i.process, i.log, secret)]
        if self.stub:
            self.stub.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- the phases --

    def cpu_shares(self, before, after, busy_idle_before, busy_idle_after):
        """Percent of one core each party used between two proc_stats tables."""
        def ticks(roots):
            pids = set().union(*(family(after, r) for r in roots)) if roots else set()
            return sum(after[p][1] - before.get(p, (0, after[p][1]))[1] for p in pids if p in after)
        elapsed = sum(busy_idle_after) - sum(busy_idle_before)  # all cores' ticks
        cores = os.cpu_count() or 1
        share = {"client": ticks([w.pid for w in self.workers]), "geonews-serve": ticks([i.process.pid for i in self.instances]),
                 "nginx": ticks([self.nginx.pid]), "PostgreSQL": ticks([self.postmaster] if self.postmaster else [])}
        share = {k: 100 * cores * v / elapsed for k, v in share.items()}
        share["idle"] = 100 * cores * (busy_idle_after[1] - busy_idle_before[1]) / elapsed
        share["other"] = max(0.0, 100 * cores - sum(share.values()))
        return share

    def maximum(self):
        """Requests per second with every connection busy, and the CPU of each party meanwhile."""
        for pipe in self.pipes:
            pipe.send(("closed", time.monotonic() + MAXIMUM_WARM_UP))
        self.collect()
        table, machine, began = proc_stats(), busy_and_idle(), time.monotonic()
        for pipe in self.pipes:
            pipe.send(("closed", began + MAXIMUM_SECONDS))
        interval = self.collect()
        elapsed = time.monotonic() - began
        shares = self.cpu_shares(table, proc_stats(), machine, busy_and_idle())
        count = sum(interval.statuses.values())
        latencies = all_latencies(interval)
        self.say(f"maximum: {count / elapsed:,.0f} requests/s, every one of {PROCESSES * THREADS} connections busy for "
                 f"{elapsed:.0f} s (p50 {ms(percentile(latencies, 0.5))} ms, p99 {ms(percentile(latencies, 0.99))} ms, "
                 f"errors {errors_text(interval.statuses)})")
        self.say(f"meanwhile, percent of one core ({os.cpu_count()} in all): "
                 + ", ".join(f"{k} {v:.0f}" for k, v in shares.items()))
        return count / elapsed, interval

    def soak(self, rate):
        o = self.options
        intervals = round(o.minutes * 60 / o.report_every)
        start = time.monotonic() + 1
        boundaries = [start + o.report_every * (k + 1) for k in range(intervals)]
        for pipe in self.pipes:
            pipe.send(("paced", rate / (PROCESSES * THREADS), start, boundaries))
        self.say(f"paced: {rate:,.0f} requests/s ({SHARE:.0%} of the maximum) for {o.minutes:g} min, "
                 f"{PROCESSES * THREADS} connections, {PROCESSES * THREADS} users; the first {o.report_every:g} s are the warm-up")
        table = Table([i.name for i in self.instances])
        print(table.header(), flush=True)
        samples, periods = [], []
        floors = Floors(self.instances)
        for k, boundary in enumerate(boundaries):
            time.sleep(max(0.0, boundary - time.monotonic()))
            dead = [i for i in self.instances if i.process.poll() is not None]
            if dead:
                raise RunError("; ".join(f"instance {i.name} exited with {i.process.returncode}: {i.log_tail()}" for i in dead))
            least = floors.swap()
            sample = {i.name: dict(i.sample(), **least[i.name]) for i in self.instances}
            sample["pg"] = postgres_connections(o.store)
            sample["load"] = os.getloadavg()[0]
            interval = self.collect()
            samples.append(sample)
            periods.append(interval)
            latencies = all_latencies(interval)
            values = [f"{(k + 1) * o.report_every / 60:.1f}", f"{sum(interval.statuses.values()) / o.report_every:.0f}",
                      f"{interval.late:.1f}"]
            for i in self.instances:
                s = sample[i.name]
                values += [f"{s['rss']:.0f}", f"{s['heap']:.1f}", s["fd"], s["conn"]]
            values += [sample["pg"], f"{sample['load']:.2f}", f"{ms(percentile(latencies, 0.5))}/{ms(percentile(latencies, 0.99))}"]
            values += interval_cells(interval) + [errors_text(interval.statuses)]
            print(table.line(values), flush=True)
        floors.stop()
        return samples, periods

    # -- the checks --

    def check_resources(self, samples):
        # Each check compares the first half of the intervals after the warm-up with the last
        # half, each by its least reading: the answer caches are emptied when full, so the heap
        # is a sawtooth whose teeth can span an interval (a 2-minute interval of a 10-minute run
        # read 54, 62, 54, 64 MB at its least); the least over half the run sits at a tooth's
        # foot, and a leak lifts the feet.
        after = samples[1:]
        half = max(1, len(after) // 2)
        early, late = after[:half], after[-half:]
        first, last = samples[1], samples[-1]  # the first interval after the warm-up, the last
        for i in self.instances:
            a = {key: min(s[i.name][key] for s in early) for key in ("heap", "fd")}
            b = {key: min(s[i.name][key] for s in late) for key in ("heap", "fd")}
            # The check takes the heap and the descriptors that are not connections, the least
            # of each interval (see Floors): RSS also counts the pages of the memory-mapped
            # indexes that queries have touched (the kernel's cache of those files, bounded by
            # their size), and connections follow the load and nginx's pool of them.
            span = (f"the least over the first {len(early)} interval{'s' if len(early) > 1 else ''} after the warm-up "
                    f"and over the last {len(late)}")
            for key, label in (("heap", "heap (RssAnon) MB"), ("fd", "descriptors other than connections")):
                change = (b[key] - a[key]) / a[key] * 100 if a[key] else 0.0
                self.figures.append(f"instance {i.name} {label}, {span}: {a[key]:.1f} → {b[key]:.1f} ({change:+.1f} %)"
                                    f"; each interval's least: " + ", ".join(f"{s[i.name][key]:.1f}" for s in after))
                if key == "heap" and self.options.minutes < HEAP_CHECK_MINUTES:
                    self.figures.append(f"instance {i.name} heap not checked: a run of {self.options.minutes:g} min is shorter than "
                                        f"the {HEAP_CHECK_MINUTES} min the answer caches and the allocator take to settle")
                elif b[key] > a[key] * 1.10:
                    self.problems.append(f"instance {i.name} {label} grew {change:+.1f} % after the warm-up "
                                         f"({a[key]:.1f} → {b[key]:.1f}, {span}), past 10 %")
            x, y = first[i.name], last[i.name]
            self.figures.append(f"instance {i.name} at the ends of the first interval after the warm-up and the last: "
                                f"RSS {x['rss']:.1f} → {y['rss']:.1f} MB, "
                                f"descriptors {x['all fd']} → {y['all fd']} (TCP connections {x['conn']} → {y['conn']}), "
                                f"threads {x['threads']} → {y['threads']}, dataset archives mapped {x['mapped']} → {y['mapped']}, "
                                f"files in datasets/ {x['files']} → {y['files']}")
        self.figures.append(f"PostgreSQL connections: {first['pg']} → {last['pg']}, at most {max(s['pg'] for s in samples)}")

    def check_latency(self, rate, periods):
        first, last = periods[1], periods[-1]
        # The latencies compare only at one load: the last interval must have had the rate the
        # client was paced at. A server that slows down makes the 16 connections fall behind
        # their schedule, and the load then falls with it.
        count = [sum(p.statuses.values()) / self.options.report_every for p in (first, last)]
        self.figures.append(f"rate: paced at {rate:,.0f} requests/s; answered {count[0]:,.0f}/s in the first interval after "
                            f"the warm-up, {count[1]:,.0f}/s in the last, the client at most {last.late:.1f} s behind its schedule")
        if count[1] < 0.9 * rate:
            self.problems.append(f"the last interval answered {count[1]:,.0f} requests/s, under 90 % of the {rate:,.0f}/s paced: "
                                 f"the instances could not keep up (the client fell {last.late:.0f} s behind)")
        a, b = percentile(all_latencies(first), 0.99), percentile(all_latencies(last), 0.99)
        self.figures.append(f"p99 over all routes: {ms(a)} ms in the first interval after the warm-up, {ms(b)} ms in the last ({b / a:.2f}x)")
        if b > 1.5 * a and b > a + 1:
            self.problems.append(f"p99 over all routes rose from {ms(a)} to {ms(b)} ms ({b / a:.2f}x, past 1.5x and 1 ms)")
        slower = []
        for route in ROUTES:
            x, y = sorted(first.latencies.get(route, [])), sorted(last.latencies.get(route, []))
            if len(x) >= 200 and len(y) >= 200 and percentile(y, 0.99) > 1.5 * percentile(x, 0.99):
                slower.append(f"{route} {ms(percentile(x, 0.99))} → {ms(percentile(y, 0.99))} ms")
        self.figures.append("routes whose own p99 rose past 1.5x (200 answers or more in both; not a failure on their own): "
                            + (", ".join(slower) or "none"))

    def check_answers(self, periods):
        total = Interval()
        for p in periods:
            total.merge(p)
        count = sum(total.statuses.values())
        server_errors = sum(n for s, n in total.statuses.items() if s >= 500)
        other = sum(n for s, n in total.statuses.items() if not 200 <= s < 300) - server_errors
        self.figures.append(f"{count:,} requests, the maximum's included; errors by status: {errors_text(total.statuses)}")
        if server_errors:
            self.problems.append(f"{server_errors} answers were 5xx")
        if other:
            self.problems.append(f"{other} answers were neither 2xx nor 5xx (4xx or a failed connection)")
        for failure in total.failures[:5]:
            self.figures.append(f"a failure: {failure}")
        self.figures.append(f"the stub answered {len(self.stub.requests)} requests for Google News "
                            f"(the server's cache keeps an answer {HEADLINE_TTL} s)")
        for i in self.instances:
            i.log.flush()
            i.log.seek(0)
            lines = i.log.readlines()
            worrying = [line.strip() for line in lines if any(w in line.lower() for w in ("error", "warn", "fail"))]
            self.figures.append(f"instance {i.name} logged {len(lines)} lines, {len(worrying)} naming an error, a warning or a failure"
                                + (f", the first: {worrying[0][:200]}" if worrying else ""))

    def check_writes(self):
        ledgers = []
        for pipe in self.pipes:
            pipe.send(("ledgers",))
            ledgers += pipe.recv()
        stale = [s for ledger in ledgers for s in ledger.stale_reads]
        if stale:
            self.problems.append(f"{len(stale)} reads through nginx missed an acknowledged write, e.g. {stale[0]}")
        # The dataset a user deleted through one instance is forgotten by the other at its next
        # check against the store, at most 10 s after a query of it there.
        time.sleep(11)
        lost = []
        for i in self.instances:
            for ledger in ledgers:
                lost += [f"{i.name}: {p}" for p in self.listed_favourites(i.port, ledger)]
                lost += [f"{i.name}: {p}" for p in self.listed_datasets(i.port, ledger)]
                status, settings, _ = request(i.port, "GET", "/v1/settings", token=ledger.token)
                if status != 200:
                    lost.append(f"{i.name}: GET /v1/settings answered {status}")
                elif ledger.settings and not ledger.settings_uncertain and any(settings.get(k) != v for k, v in ledger.settings.items()):
                    lost.append(f"{i.name}: settings {settings}, not the last PUT {ledger.settings}")
        saved = sum(len(x.favourites) + len(x.deleted_favourites) for x in ledgers)
        self.figures.append(f"writes: {saved:,} favourites saved, {sum(len(x.deleted_favourites) for x in ledgers):,} deleted, "
                            f"{sum(len(x.favourites) for x in ledgers):,} kept; "
                            f"{sum(len(x.datasets) + len(x.deleted_datasets) for x in ledgers):,} datasets uploaded, "
                            f"{sum(len(x.deleted_datasets) for x in ledgers):,} deleted; "
                            f"{sum(1 for x in ledgers if x.settings)} users' settings; each listed through both instances: "
                            f"{len(lost)} differences")
        if lost:
            self.problems.append(f"{len(lost)} acknowledged writes lost or deletes undone, e.g. {'; '.join(lost[:3])}")
        checked = sum(min(3, len(x.deleted_datasets)) for x in ledgers) * len(self.instances)
        self.figures.append(f"deleted datasets asked for again through each instance: {checked}; answered 200 once more "
                            f"(from the copy an instance loaded, while it checks the store) then 404: {self.stale_once}")
        # What an instance keeps on disk of the datasets deleted, through it or the other one.
        deleted = {d for ledger in ledgers for d in ledger.deleted_datasets}
        for i in self.instances:
            names = os.listdir(i.datasets) if os.path.isdir(i.datasets) else []
            left = {n.split(".")[0] for n in names} & deleted
            self.figures.append(f"instance {i.name}: {len(names)} files in datasets/, {len(left)} deleted datasets among them")
            if left:
                self.problems.append(f"instance {i.name} keeps the files of {len(left)} of the {len(deleted)} deleted datasets "
                                     f"in datasets/ (e.g. {sorted(left)[0]})")

    def listed_favourites(self, port, ledger):
        seen, path = [], "/v1/favourites?limit=500"
        while path:
            status, body, headers = request(port, "GET", path, token=ledger.token)
            if status != 200:
                return [f"GET {path} answered {status}"]
            seen += [(f["id"], f["url"]) for f in body]
            link = headers.get("Link") or headers.get("link")
            path = link.split(">")[0].lstrip("<") if link else None
        problems = []
        urls = Counter(url for _, url in seen)
        ids = {favourite for favourite, _ in seen}
        twice = [u for u, n in urls.items() if n > 1]
        missing = [f for f in ledger.favourites if f not in ids]
        undeleted = [f for f in ledger.deleted_favourites if f in ids and ledger.deleted_favourites[f] not in ledger.uncertain]
        unknown = [u for u in urls if u not in ledger.uncertain and u not in set(ledger.favourites.values())]
        if twice:
            problems.append(f"{len(twice)} favourites listed twice, e.g. {twice[0]}")
        if missing:
            problems.append(f"{len(missing)} saved favourites missing, e.g. id {missing[0]}")
        if undeleted:
            problems.append(f"{len(undeleted)} deleted favourites still listed, e.g. id {undeleted[0]}")
        if unknown:
            problems.append(f"{len(unknown)} favourites listed that were never acknowledged, e.g. {unknown[0]}")
        return problems

    def listed_datasets(self, port, ledger):
        status, body, _ = request(port, "GET", "/v1/datasets", token=ledger.token)
        if status != 200:
            return [f"GET /v1/datasets answered {status}"]
        listed = [d["id"] for d in body if d["id"] != "markers"]
        problems = []
        if len(listed) != len(set(listed)):
            problems.append("a dataset listed twice")
        missing = set(ledger.datasets) - set(listed)
        if missing:
            problems.append(f"{len(missing)} uploaded datasets missing, e.g. {sorted(missing)[0]}")
        undeleted = (set(listed) & set(ledger.deleted_datasets)) - ledger.uncertain_datasets
        if undeleted:
            problems.append(f"{len(undeleted)} deleted datasets still listed, e.g. {sorted(undeleted)[0]}")
        unknown = set(listed) - set(ledger.datasets) - set(ledger.deleted_datasets) - ledger.uncertain_datasets
        if len(unknown) > ledger.failed_uploads:
            problems.append(f"{len(unknown)} datasets listed that were never acknowledged")
        # The last few deleted are gone from the cluster routes too. An instance that loaded one
        # another deleted checks it against the store when it is next asked for it (at most
        # every 10 s) and answers that request from what it has: the second must be 404.
        for dataset in ledger.deleted_datasets[-3:]:
            answers = [request(port, "GET", f"/v1/clusters?dataset={dataset}&zoom=0")[0]]
            if answers[0] != 404:
                time.sleep(0.5)
                answers.append(request(port, "GET", f"/v1/clusters?dataset={dataset}&zoom=0")[0])
                self.stale_once += 1
            if answers[-1] != 404:
                problems.append(f"the deleted dataset {dataset} answers GET /v1/clusters {answers}, not 404")
        return problems


class RunError(Exception):
    """What ends the run early (a process that did not start, or died): one problem."""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", required=True, help="the geonews-serve binary")
    parser.add_argument("--store", required=True, help="postgres://… of an empty database")
    parser.add_argument("--pg-ctl", help="Tests/Postgres/start.sh's control script, to count PostgreSQL's CPU")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--report-every", type=float, default=300, help="seconds between two reports")
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    options = parser.parse_args()
    if options.minutes * 60 / options.report_every < 2.5:
        print(f"soak: --minutes {options.minutes:g} holds fewer than 3 reports of --report-every {options.report_every:g} s: "
              "the warm-up, a first report after it and a last one", file=sys.stderr)
        return 64

    def stop(*_):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, stop)
    run = Soak(options)
    try:
        run.say(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
                f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {options.serve}")
        run.start()
        run.start_clients()
        most, busiest = run.maximum()
        samples, periods = run.soak(most * SHARE)
        run.check_resources(samples)
        run.check_latency(most * SHARE, periods)
        run.check_answers([busiest] + periods)
        run.check_writes()
    except RunError as error:
        run.problems.append(str(error))
    except KeyboardInterrupt:
        print("soak: interrupted; stopping everything", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second signal must not cut the clean-up short
        run.stop()
    return report("soak", run.figures, run.problems)


if __name__ == "__main__":
    sys.exit(main())
