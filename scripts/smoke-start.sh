#!/usr/bin/env bash
# Smoke of `npm start` on the Node first on PATH (CI: the oldest Node the README names): start it on a free
# port with a data folder of its own, wait for /readyz to answer 200, stop it with SIGTERM, and fail if it
# never became ready (the last lines it printed are shown then). Time limit: PALKIT_SMOKE_SECONDS (300).
set -euo pipefail
cd "$(dirname "$0")/.."
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
data=$(mktemp -d)
log=$(mktemp)
echo "smoke: npm start on node $(node --version), port $port"
started=$(date +%s)
PORT=$port PALKIT_DATA=$data setsid npm start >"$log" 2>&1 &
group=$!
ready=no
for _ in $(seq 1 "${PALKIT_SMOKE_SECONDS:-300}"); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null; then ready=yes; break; fi
  kill -0 "$group" 2>/dev/null || break
  sleep 1
done
kill -TERM -- "-$group" 2>/dev/null || true
wait "$group" 2>/dev/null || true
rm -rf "$data"
if [ "$ready" = yes ]; then
  echo "smoke: /readyz answered after $(( $(date +%s) - started )) s on node $(node --version); stopped"
  rm -f "$log"
else
  echo "smoke: npm start never became ready on node $(node --version); its last lines:" >&2
  tail -40 "$log" >&2
  rm -f "$log"
  exit 1
fi
