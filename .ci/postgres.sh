#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of the shared translation memory (Debian's
# postgresql package, installed when missing): a cluster made by initdb in a temporary directory
# as the postgres user (CI runs as root, which PostgreSQL refuses), on a free port of 127.0.0.1,
# trust authentication (but for the role vx_test_password, which must give its password), no
# fsync; TLS offered with a self-signed certificate for 127.0.0.1 (when openssl is there), whose
# file the tests get as VX_TEST_PG_CA. Sourced by .ci/run:
#   pg_start     starts it (writes VX_TEST_PG_URL=... and VX_TEST_PG_CA=... to the file it is given)
#   pg_stop      stops it and removes its directory (also when the tests failed)
# Run directly (`bash .ci/postgres.sh`) it starts one and prints the export line, for local runs;
# `bash .ci/postgres.sh stop <dir>` stops it.

pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && echo "$d"
}

pg_install() {
  [ -n "$(pg_bin)" ] && return 0
  # the package's own cluster is not used (nor started: no init system in CI)
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1
  [ -n "$(pg_bin)" ]
}

pg_free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}

# pg_start <env-file>: installs, makes the cluster, starts it; writes VX_TEST_PG_URL=... (or nothing) to <env-file>
pg_start() {
  local out=$1 bin dir port
  : >"$out"
  pg_install || { echo "postgresql: cannot install it; the tests that need it are skipped" >&2; return 1; }
  bin=$(pg_bin)
  dir=$(mktemp -d /tmp/vx-pg.XXXXXX)
  chown postgres "$dir"
  port=$(pg_free_port)
  echo "$dir" >"$out.dir"
  runuser -u postgres -- "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { echo "postgresql: initdb failed:" >&2; tail -n 5 "$dir/initdb.log" >&2; return 1; }
  # the password tests' role authenticates with SCRAM; every other one is trusted
  { echo "host all vx_test_password 127.0.0.1/32 scram-sha-256"; cat "$dir/data/pg_hba.conf"; } >"$dir/hba" && cat "$dir/hba" >"$dir/data/pg_hba.conf"
  local tls=""
  # tests need no durability; PG_DURABLE=1 (the benchmarks) keeps PostgreSQL's defaults, as a team's server has them
  local fast="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${PG_DURABLE:-}" = 1 ] && fast=""
  if command -v openssl >/dev/null &&
    openssl req -new -x509 -days 2 -nodes -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
      -keyout "$dir/data/server.key" -out "$dir/data/server.crt" >/dev/null 2>&1; then
    chown postgres "$dir/data/server.key" "$dir/data/server.crt" && chmod 600 "$dir/data/server.key"
    cp "$dir/data/server.crt" "$dir/ca.crt" && chmod 644 "$dir/ca.crt"
    tls="-c ssl=on"
  fi
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $fast -c max_connections=200 $tls" start >/dev/null ||
    { echo "postgresql: the server did not start:" >&2; tail -n 5 "$dir/server.log" >&2; return 1; }
  echo "VX_TEST_PG_URL=postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable" >"$out"
  [ -n "$tls" ] && echo "VX_TEST_PG_CA=$dir/ca.crt" >>"$out"
  return 0
}

# pg_stop <env-file>: stops the server pg_start made and removes its directory
pg_stop() {
  local out=$1 dir
  dir=$(cat "$out.dir" 2>/dev/null)
  if [ -n "$dir" ] && [ -d "$dir" ]; then
    runuser -u postgres -- "$(pg_bin)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$dir"
  fi
  rm -f "$out" "$out.dir" "$out.log"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  if [ "${1:-}" = stop ]; then
    pg_stop "$2"
  else
    env_file=$(mktemp /tmp/vx-pg-env.XXXXXX)
    pg_start "$env_file" && echo "export $(tr '\n' ' ' <"$env_file")  # stop: bash .ci/postgres.sh stop $env_file"
  fi
fi
