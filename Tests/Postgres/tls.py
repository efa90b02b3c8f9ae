#!/usr/bin/env python3
"""geonews-serve and a PostgreSQL that accepts only TLS, with certificates from a test
certificate authority made here (openssl): `sslmode=verify-full` with that authority connects
and the server serves the store's routes; an authority that did not sign the server's
certificate, an address the certificate does not name (where `verify-ca`, which checks no
name, connects), and `sslmode=disable` against the TLS-only server are each refused at start,
in one line, exit 74, without the password.

Usage: tls.py --serve .build/debug/geonews-serve
Needs PostgreSQL 15's server binaries (/usr/lib/postgresql/15/bin) and openssl, and root (the
server runs as the unprivileged user geonews-test, as Tests/Postgres/start.sh runs it).
Prints one line per case and "tls: passed" or "tls: FAILED …"; exit 0 or 1.
"""
import argparse
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from failover import free_port, report, request  # noqa: E402

PG = "/usr/lib/postgresql/15/bin"


def openssl(*arguments, cwd):
    subprocess.run(["openssl", *arguments], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def certificates(folder):
    """A test CA that signs the server's certificate (for 127.0.0.1 only), and another CA."""
    for ca in ("ca", "other-ca"):
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN=GeoNews test {ca}",
                "-keyout", f"{ca}.key", "-out", f"{ca}.pem", cwd=folder)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
            "-out", "server.csr", cwd=folder)
    with open(os.path.join(folder, "san.ext"), "w") as f:
        f.write("subjectAltName = IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
            "-extfile", "san.ext", "-out", "server.pem", cwd=folder)


def as_test_user(*arguments, **kw):
    return subprocess.run(["runuser", "-u", "geonews-test", "--", *arguments], check=True, **kw)


def start_postgres(folder, password):
    """A PostgreSQL on a free port of 127.0.0.1 that accepts TLS connections only."""
    if subprocess.run(["id", "-u", "geonews-test"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "geonews-test"], check=True)
    data = os.path.join(folder, "data")
    with open(os.path.join(folder, "password"), "w") as f:
        f.write(password + "\n")
    shutil.chown(folder, "geonews-test")
    for name in ("server.key", "server.pem", "password"):
        shutil.chown(os.path.join(folder, name), "geonews-test")
    os.chmod(os.path.join(folder, "server.key"), 0o600)
    as_test_user(f"{PG}/initdb", "-D", data, "-U", "geonews", "-E", "UTF8", "--no-sync", "-A", "scram-sha-256",
                 f"--pwfile={folder}/password", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(data, "pg_hba.conf"), "w") as f:
        f.write("local all all scram-sha-256\nhostssl all all 127.0.0.0/8 scram-sha-256\n")
    port = free_port()
    # 127.0.0.2 too: the same server under an address its certificate does not name.
    options = (f"-c listen_addresses=127.0.0.1,127.0.0.2 -p {port} -k {folder} -c fsync=off -c ssl=on "
               f"-c ssl_cert_file={folder}/server.pem -c ssl_key_file={folder}/server.key")
    as_test_user(f"{PG}/pg_ctl", "-D", data, "-l", f"{folder}/server.log", "-w", "-t", "30", "-o", options, "start",
                 stdout=subprocess.DEVNULL)
    env = dict(os.environ, PGPASSWORD=password, PGSSLMODE="require")
    subprocess.run([f"{PG}/createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "geonews", "geonews_test"], check=True, env=env)
    return data, port


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", required=True)
    options = parser.parse_args()
    if os.environ.get("GEONEWS_TLS_KEEP"):
        print("tls: keeping the server")
    if not os.path.exists(f"{PG}/initdb") or shutil.which("openssl") is None:
        print("tls: FAILED: PostgreSQL 15 or openssl is missing (Scripts/setup-system.sh test)")
        return 1
    folder = tempfile.mkdtemp(prefix="geonews-tls-")
    os.chmod(folder, 0o755)
    password = secrets.token_hex(16)
    certificates(folder)
    data, port = start_postgres(folder, password)
    problems = []
    base = f"postgres://geonews:{password}@{{host}}:{port}/geonews_test"

    def run(label, url, expect_start):
        state = tempfile.mkdtemp(prefix="geonews-tls-state-")
        http = free_port()
        log_path = os.path.join(state, "server.log")
        with open(log_path, "w+") as log:
            server = subprocess.Popen([options.serve, "--port", str(http), "--state-dir", os.path.join(state, "s"),
                                       "--store", url], stdout=log, stderr=subprocess.STDOUT)
            began = time.monotonic()
            try:
                if expect_start:
                    status = None
                    for _ in range(300):
                        if server.poll() is not None:
                            break
                        status = request(http, "POST", "/v1/users")[0] if request(http, "GET", "/healthz")[0] == 200 else None
                        if status:
                            break
                        time.sleep(0.1)
                    if status != 201:
                        log.seek(0)
                        problems.append(f"{label}: the server did not serve the store (POST /v1/users {status}): {log.read().strip()}")
                    else:
                        print(f"tls: {label}: connected; POST /v1/users 201 in {time.monotonic() - began:.1f} s")
                else:
                    try:
                        code = server.wait(timeout=60)
                    except subprocess.TimeoutExpired:
                        problems.append(f"{label}: the server started; it should have refused the store")
                        return
                    log.seek(0)
                    lines = [line for line in log.read().splitlines() if line.strip()]
                    text = " / ".join(lines)
                    if code != 74:
                        problems.append(f"{label}: exit {code}, expected 74: {text}")
                    elif len(lines) != 1:
                        problems.append(f"{label}: {len(lines)} lines, expected one: {text}")
                    elif password in text:
                        problems.append(f"{label}: the message holds the password")
                    else:
                        print(f"tls: {label}: refused at start in {time.monotonic() - began:.1f} s, exit 74: {text}")
            finally:
                if server.poll() is None:
                    server.terminate()
                    server.wait(timeout=30)
                shutil.rmtree(state, ignore_errors=True)

    try:
        run("verify-full with the test CA", base.format(host="127.0.0.1") + f"?sslmode=verify-full&sslrootcert={folder}/ca.pem", True)
        run("verify-full with another CA", base.format(host="127.0.0.1") + f"?sslmode=verify-full&sslrootcert={folder}/other-ca.pem",
            False)
        run("verify-full to an address the certificate does not name",
            base.format(host="127.0.0.2") + f"?sslmode=verify-full&sslrootcert={folder}/ca.pem", False)
        run("verify-ca to that address (the name is not checked)",
            base.format(host="127.0.0.2") + f"?sslmode=verify-ca&sslrootcert={folder}/ca.pem", True)
        run("sslmode=disable against a TLS-only server", base.format(host="127.0.0.1") + "?sslmode=disable", False)
    finally:
        subprocess.run(["runuser", "-u", "geonews-test", "--", f"{PG}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)
    return report("tls", [], problems)


if __name__ == "__main__":
    sys.exit(main())
