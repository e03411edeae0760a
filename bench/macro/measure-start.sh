#!/usr/bin/env bash
# Start-up time and idle memory of `tollgate local`, `tollgate simulate` and `tollgate gateway`.
#
#   bench/macro/measure-start.sh [--tsx] [repo] [runs]   (repo defaults to this checkout, runs to 3)
#
# --tsx runs the TypeScript sources through tsx (`node --import tsx bin/main.ts`) instead of the
# build, for comparison; bin/tollgate.js did that before the build was required.
#
# Start-up: from spawning `node bin/tollgate.js <command>` to its first "is running" / "listening"
# line. Idle RSS: VmRSS of the process 5 s later. Each command runs `runs` times; the median is
# printed (and every run on stderr). The gateway uses pepper and credential-key files and the memory
# store. A stale dist/ is rebuilt before the first run; a run that rebuilt anyway is flagged.
set -euo pipefail
cli=(bin/tollgate.js) label=''
if [ "${1:-}" = --tsx ]; then
  cli=(--import tsx bin/main.ts) label=' (tsx)'
  shift
fi
repo=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
runs=${2:-3}
cd "$repo"
# A stale dist/ is rebuilt now rather than in a measured run.
if [ -z "$label" ] && [ -f bin/ensure-fresh-build.js ]; then
  node bin/tollgate.js --help > /dev/null
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

measure_once() { # <command> <scratch dir> -> "<ms> <rss MB>"
  local cmd=$1 d=$2 args
  case $cmd in
    local) args=(--data "$d/data" --port 0) ;;
    simulate) args=(--port 0) ;;
    gateway)
      head -c 32 /dev/urandom | base64 > "$d/pepper"
      head -c 32 /dev/urandom | base64 > "$d/credential-key"
      args=(--port 0 --host 127.0.0.1 --metrics-port 0 --metrics-host 127.0.0.1
        --pepper-file "$d/pepper" --credential-key-file "$d/credential-key")
      ;;
  esac
  local start pid t rss
  start=$(date +%s%N)
  node "${cli[@]}" "$cmd" "${args[@]}" > "$d/out" 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do grep -qsE "is running|listening" "$d/out" && break; sleep 0.01; done
  grep -qsE "is running|listening" "$d/out" || echo "  ($cmd: never became ready)" >&2
  t=$((($(date +%s%N) - start) / 1000000))
  sleep 5
  rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")
  kill -TERM "$pid"
  wait "$pid" 2> /dev/null || true
  if grep -q "rebuilding" "$d/out"; then echo "  ($cmd: this run rebuilt dist/ first)" >&2; fi
  echo "$t $((rss / 1024))"
}

for cmd in local simulate gateway; do
  times=() rsss=()
  for _ in $(seq 1 "$runs"); do
    d=$(mktemp -d)
    read -r t rss < <(measure_once "$cmd" "$d")
    echo "  $cmd run: ${t} ms, ${rss} MB" >&2
    times+=("$t") rsss+=("$rss")
    rm -rf "$d"
  done
  t=$(printf '%s\n' "${times[@]}" | median)
  rss=$(printf '%s\n' "${rsss[@]}" | median)
  echo "$cmd$label: ready in ${t} ms, idle RSS ${rss} MB (median of $runs)"
done
