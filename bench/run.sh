#!/usr/bin/env bash
# Builds Release and runs the benchmarks with their defaults: ingest (the loader against its baselines on
# Azurite), dryrun (the loader's CSV path alone), concurrency (Adaptive against Fixed on a long skewed load), then
# throttle (the loader against an RU budget). Leading
# command names pick some of them; the arguments after them go to each, e.g.
#   bench/run.sh --repeat 3        bench/run.sh --rows 30000 --per-row-rows 3000        bench/run.sh throttle
# Exit code: the worst of them (0 targets met, 1 a target missed, 2 bad arguments, 3 a measurement invalid).
set -uo pipefail
cd "$(dirname "$0")/.."

commands=()
while [[ $# -gt 0 && $1 =~ ^(ingest|dryrun|concurrency|throttle)$ ]]; do
  commands+=("$1")
  shift
done
(( ${#commands[@]} > 0 )) || commands=(ingest dryrun concurrency throttle)

scripts/ensure-tools.sh || exit 3

mkdir -p bench/results
echo "Building Release..." >&2
dotnet build bench/Loader.Benchmarks -c Release -nologo >bench/results/build.log 2>&1 || { cat bench/results/build.log >&2; exit 3; }

status=0
for command in "${commands[@]}"; do
  dotnet bench/Loader.Benchmarks/bin/Release/net10.0/Loader.Benchmarks.dll "$command" "$@"
  code=$?
  [[ $code -eq 130 ]] && exit 130 # interrupted: do not start the next one
  (( code > status )) && status=$code
  echo
done
exit $status
