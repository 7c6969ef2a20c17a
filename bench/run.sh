#!/usr/bin/env bash
# Builds Release and runs the benchmarks with their defaults: ingest (the loader against its baselines on
# Azurite), then dryrun (the loader's CSV path alone). Extra arguments go to both, e.g.
#   bench/run.sh --repeat 3        bench/run.sh --rows 30000 --per-row-rows 3000
# Exit code: the worst of the two (0 targets met, 1 a target missed, 2 bad arguments, 3 a measurement invalid).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh || exit 3

mkdir -p bench/results
echo "Building Release..." >&2
dotnet build bench/Loader.Benchmarks -c Release -nologo >bench/results/build.log 2>&1 || { cat bench/results/build.log >&2; exit 3; }

status=0
for command in ingest dryrun; do
  dotnet bench/Loader.Benchmarks/bin/Release/net10.0/Loader.Benchmarks.dll "$command" "$@"
  code=$?
  [[ $code -eq 130 ]] && exit 130 # interrupted: do not start the next one
  (( code > status )) && status=$code
  echo
done
exit $status
