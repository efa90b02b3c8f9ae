#!/usr/bin/env bash
# Acknowledged means committed, with two instances on one PostgreSQL behind nginx (Debian) as a
# round-robin upstream: concurrent writers save favourites with unique urls through nginx while
# one instance at random is killed with SIGKILL and restarted, KILLS times (default 20). Then
# every save answered 2xx must be there exactly once, and the only failures allowed are the
# requests in flight on the killed instance (nginx answers those 502: their connection to the
# instance was reset). Prints the figures; exits 1 when a check fails.
#
#   Tests/Postgres/failover.sh [KILLS]
#
# Uses the debug geonews-serve (swift build --product geonews-serve first), a PostgreSQL from
# Tests/Postgres/start.sh, and loopback only.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
kills="${1:-20}"
serve="$root/.build/debug/geonews-serve"
[ -x "$serve" ] || { echo "failover: build geonews-serve first (swift build --product geonews-serve)" >&2; exit 1; }
command -v nginx >/dev/null || { echo "failover: nginx is missing (apt-get install nginx-light)" >&2; exit 1; }
. Tests/Postgres/start.sh
[ -n "${GEONEWS_TEST_POSTGRES_URL:-}" ] || { echo "failover: no PostgreSQL 15 (apt-get install postgresql-15)" >&2; exit 1; }

work="$(mktemp -d /tmp/geonews-failover.XXXXXX)"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ports=("$(free_port)" "$(free_port)")
front="$(free_port)"
pids=("" "")
nginx_pid=""
cleanup() {
  for p in "${pids[@]}" "$nginx_pid"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
  geonews_pg_stop
}
trap cleanup EXIT

start_instance() {
  local n=$1
  "$serve" --port "${ports[$n]}" --state-dir "$work/state$n" --store "$GEONEWS_TEST_POSTGRES_URL" \
    --write-rate 100000 --write-burst 100000 >"$work/out$n" 2>>"$work/err$n" &
  pids[$n]=$!
  for _ in $(seq 1 200); do
    grep -q "listening on" "$work/out$n" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "failover: instance $n did not start: $(cat "$work/err$n")" >&2
  exit 1
}

mkdir -p "$work/nginx"
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
error_log $work/nginx/error.log;
pid $work/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx;
  proxy_temp_path $work/nginx;
  upstream geonews {
    server 127.0.0.1:${ports[0]} max_fails=0;
    server 127.0.0.1:${ports[1]} max_fails=0;
  }
  server {
    listen 127.0.0.1:$front;
    location / {
      proxy_pass http://geonews;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # A refused connection (the instance down) goes to the other; a request already sent is
      # not repeated (POST is not idempotent), and answers 502.
      proxy_next_upstream error timeout;
    }
  }
}
CONF
start_instance 0
start_instance 1
nginx -c "$work/nginx.conf" -g 'daemon off;' &
nginx_pid=$!
sleep 0.5

python3 - "$front" "$work" "$kills" "${ports[@]}" <<'PY' &
import http.client, json, sys, threading, time, os
front, work = int(sys.argv[1]), sys.argv[2]
stop = os.path.join(work, "stop")
def call(method, path, body=None, token=None):
    c = http.client.HTTPConnection("127.0.0.1", front, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = "Bearer " + token
    c.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = c.getresponse(); data = r.read(); c.close()
    return r.status, data
tokens = []
while len(tokens) < 8:
    s, d = call("POST", "/v1/users")
    if s == 201: tokens.append(json.loads(d)["token"])
results = {t: {"acked": [], "failed": {}} for t in tokens}
def writer(t, k):
    n = 0
    while not os.path.exists(stop):
        url = "https://example.org/%d/%d" % (k, n); n += 1
        try:
            s, _ = call("POST", "/v1/favourites", {"url": url, "title": "t"}, t)
            if 200 <= s < 300: results[t]["acked"].append(url)
            else: results[t]["failed"][url] = "status %d" % s
        except Exception as e:
            results[t]["failed"][url] = type(e).__name__
threads = [threading.Thread(target=writer, args=(t, k)) for k, t in enumerate(tokens)]
for th in threads: th.start()
for th in threads: th.join()
json.dump(results, open(os.path.join(work, "results.json"), "w"))
PY
writers=$!

started=$(date +%s)
for k in $(seq 1 "$kills"); do
  sleep "0.$((RANDOM % 7 + 3))"
  n=$((RANDOM % 2))
  kill -9 "${pids[$n]}"
  wait "${pids[$n]}" 2>/dev/null || true
  start_instance "$n"
done
touch "$work/stop"
wait "$writers"
elapsed=$(($(date +%s) - started))

python3 - "$front" "$work" "$kills" "$elapsed" <<'PY'
import http.client, json, sys, collections
front, work, kills, elapsed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
results = json.load(open(work + "/results.json"))
def listing(token):
    urls, before = [], None
    while True:
        c = http.client.HTTPConnection("127.0.0.1", front, timeout=30)
        c.request("GET", "/v1/favourites?limit=500" + ("&before=%d" % before if before else ""), headers={"Authorization": "Bearer " + token})
        r = c.getresponse(); page = json.loads(r.read()); c.close()
        assert r.status == 200, r.status
        urls += [f["url"] for f in page]
        if len(page) < 500: return urls
        before = page[-1]["id"]
acked = lost = twice = failed = committed_unacked = 0
kinds = collections.Counter()
for token, r in results.items():
    stored = collections.Counter(listing(token))
    acked += len(r["acked"])
    lost += sum(1 for u in r["acked"] if stored[u] == 0)
    twice += sum(1 for u, n in stored.items() if n > 1)
    failed += len(r["failed"])
    committed_unacked += sum(1 for u in r["failed"] if stored[u] == 1)
    kinds.update(r["failed"].values())
print("failover: %d kills in %d s; %d writes answered 2xx, %d of them missing, %d urls stored twice; %d writes failed (%s), %d of those committed all the same"
      % (kills, elapsed, acked, lost, twice, failed, ", ".join("%s: %d" % kv for kv in sorted(kinds.items())) or "none", committed_unacked))
bad_kinds = [k for k in kinds if k not in ("status 502", "RemoteDisconnected", "ConnectionResetError")]
ok = lost == 0 and twice == 0 and not bad_kinds and failed <= 8 * kills
print("failover: %s" % ("every acknowledged write is there exactly once" if ok else "FAILED"))
sys.exit(0 if ok else 1)
PY
