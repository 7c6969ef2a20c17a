#!/usr/bin/env bash
# Sharded load on a local Azurite (Blob, Queue and Table services, started here, in memory): generates a skewed
# flights CSV (DataGen), then plan -> N work processes at once -> status, as docs/scale-out.md shows.
#   scripts/sharded-quickstart.sh [ROWS=200000] [WORKERS=3]      extra settings: LOADER_ARGS="--Loader:Shards:By=Key"
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-200000}
workers=${2:-3}
mkdir -p .run/sharded
scripts/ensure-tools.sh

blob=$(scripts/free-port.sh 10000); queue=$(scripts/free-port.sh $((blob + 1))); table=$(scripts/free-port.sh $((queue + 1)))
tools/node_modules/.bin/azurite --inMemoryPersistence --skipApiVersionCheck --loose --disableTelemetry \
  --blobHost 127.0.0.1 --blobPort "$blob" --queueHost 127.0.0.1 --queuePort "$queue" --tableHost 127.0.0.1 --tablePort "$table" \
  >.run/sharded/azurite.log 2>&1 &
azurite=$!
trap 'kill $azurite 2>/dev/null || true' EXIT
for port in $blob $queue $table; do
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
done
echo "Azurite: blob $blob, queue $queue, table $table (in memory; stops when this script ends)." >&2

echo "Building the loader and DataGen..." >&2
dotnet build src/Loader.Worker -c Release -nologo >.run/sharded/build.log 2>&1 || { cat .run/sharded/build.log >&2; exit 1; }
dotnet run -c Release --project tools/DataGen -- --rows "$rows" --shape skewed --columns 14 --output .run/sharded/flights.csv

# Azurite's well-known development key: public, it opens nothing but a local emulator.
key="Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
account="http://127.0.0.1"
storage="DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=$key;BlobEndpoint=$account:$blob/devstoreaccount1;QueueEndpoint=$account:$queue/devstoreaccount1;TableEndpoint=$account:$table/devstoreaccount1"
settings=(
  --Loader:Input=.run/sharded/flights.csv --Loader:Tables:Table=flights
  --Loader:PartitionKey={dest} --Loader:RowKey={year}-{month}-{day}-{carrier}-{flight}
  --Loader:Columns:year=Int32 --Loader:Columns:flight=Int32 --Loader:Columns:distance=Int32 --Loader:Columns:cancelled=Boolean
  "--Loader:Tables:ConnectionString=$storage" "--Loader:Blob:ConnectionString=$storage"
  --Loader:Shards:State=$account:$blob/devstoreaccount1/loader-state/flights/
  --Loader:Shards:Queue=$account:$queue/devstoreaccount1/loader-shards
  --Loader:Shards:TargetBytes=1000000 --Loader:LogFormat=Text
)
# shellcheck disable=SC2206 # extra settings split on spaces, as typed
settings+=(${LOADER_ARGS:-})
loader=src/Loader.Worker/bin/Release/net10.0/Loader.Worker.dll

dotnet $loader plan "${settings[@]}" 2>/dev/null
pids=()
for worker in $(seq 1 "$workers"); do
  dotnet $loader work "${settings[@]}" >".run/sharded/work-$worker.log" 2>&1 &
  pids+=($!)
done
echo "$workers work processes running (logs: .run/sharded/work-N.log)..." >&2
for pid in "${pids[@]}"; do wait "$pid" || true; done
grep -h "^Worker " .run/sharded/work-*.log >&2 || true
set +e
dotnet $loader status "${settings[@]}" --Loader:ReportPath=.run/sharded/status.json 2>/dev/null
status=$?
set -e
echo "Status: .run/sharded/status.json   Exit code: $status" >&2
exit $status
