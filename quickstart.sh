#!/usr/bin/env bash
# Quick start: loads data/flights.csv.gz (100,000 skewed flights, gzip, six broken rows among them; made by
# data/make-flights.sh) into table "flights" of a local Azurite that this script installs (npm, project-local) and
# starts itself, prints the summary, and leaves the JSON report in .run/quickstart-report.json, the rejected rows in
# .run/quickstart-rejects.csv and the HTML report beside the JSON one, whose path it prints last.
# Extra arguments go to the loader, e.g.  ./quickstart.sh --dry-run   or   ./quickstart.sh --estimate
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .run
scripts/ensure-tools.sh

port=$(scripts/free-port.sh "${AZURITE_TABLE_PORT:-10002}")
tools/node_modules/.bin/azurite-table --inMemoryPersistence --tableHost 127.0.0.1 --tablePort "$port" \
  --skipApiVersionCheck --loose --disableTelemetry >.run/azurite.log 2>&1 &
azurite=$!
trap 'kill $azurite 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
echo "Azurite (Table service) is listening on 127.0.0.1:$port (in memory; stops when this script ends)." >&2

echo "Building the loader..." >&2
dotnet build src/Loader.Worker -c Release -nologo >.run/build.log 2>&1 || { cat .run/build.log >&2; exit 1; }

# Azurite's well-known development key: public, it opens nothing but a local emulator.
key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
rm -f .run/quickstart-report.html # so the path printed last is this run's report, never an older one
set +e
# The young generation the container image sets (Dockerfile): about a third less CPU per row.
DOTNET_GCgen0size=0x6000000 dotnet src/Loader.Worker/bin/Release/net10.0/Loader.Worker.dll --settings data/flights.settings.json \
  "--Loader:Tables:ConnectionString=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;TableEndpoint=http://127.0.0.1:$port/devstoreaccount1" \
  --Loader:LogFormat=Text \
  "$@"
status=$?
set -e
echo "Report: .run/quickstart-report.json   Rejects: .run/quickstart-rejects.csv   Exit code: $status" >&2
if [[ -f .run/quickstart-report.html ]]; then
  echo "HTML report (open it in a browser): $PWD/.run/quickstart-report.html" >&2
fi
exit $status
