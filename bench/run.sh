#!/usr/bin/env bash
# Builds Release and runs the benchmarks with their defaults: ingest (the loader against its baselines on
# Azurite), dryrun (the loader's CSV path beside CsvHelper alone), concurrency (Adaptive against Fixed 2/4/8/16 on skewed loads),
# throttle (the loader against an RU budget), then instant (the loader's own ceiling against an endpoint that
# answers at once, beside the REST-client loader of 491e8a8; with --backend Cosmos the Cosmos DB adapter through the real
# SDK against the Cosmos DB stand-in in instant mode, TransactionalBatch and Bulk); blobread (the read-ahead blob stream against the
# SDK's OpenRead), compressed (the dry run on plain, .gz and .zst input), formats (the dry run of the same rows as
# CSV, JSON Lines and Parquet, the Parquet written by DuckDB in 1,048,576- and 122,880-row groups), scaleout (a sharded load by 1, 2, 3
# work processes against an endpoint holding each batch 50 ms), verify (the flights loaded into Azurite, then
# verified: verify's rows/s against the load's) and startup (the published loader, as the image's build and with candidate
# publish and runtime options, on the first 50,000 quick-start flights, wall clock against the raw Node SDK writer of bench/node and the .NET raw batch ceiling) run when named. Leading
# command names pick some of them; the arguments after them go to each, e.g.
#   bench/run.sh --repeat 3        bench/run.sh --rows 30000 --per-row-rows 3000        bench/run.sh throttle
# Exit code: the worst of them (0 targets met, 1 a target missed, 2 bad arguments, 3 a measurement invalid).
set -uo pipefail
cd "$(dirname "$0")/.."

commands=()
while [[ $# -gt 0 && $1 =~ ^(ingest|dryrun|concurrency|throttle|instant|blobread|compressed|formats|scaleout|verify|startup)$ ]]; do
  commands+=("$1")
  shift
done
(( ${#commands[@]} > 0 )) || commands=(ingest dryrun concurrency throttle instant)

# instant measures this build beside the loader with the hand-written REST client (the last commit before the SDKs),
# built once from that commit's files (git archive: no worktree to clean up) unless --baseline-loader names one.
baseline_commit=491e8a8
baseline_args=()
# --backend Cosmos measures the Cosmos DB adapter alone (no baseline).
if [[ " ${commands[*]} " == *" instant "* && " $* " != *" --baseline-loader "* && " $* " != *" --backend Cosmos "* ]]; then
  baseline_dir=${TMPDIR:-/tmp}/bulk-loader-baseline-$baseline_commit
  baseline_dll=$baseline_dir/src/Loader.Worker/bin/Release/net10.0/Loader.Worker.dll
  if [[ ! -f $baseline_dll ]]; then
    echo "Building the baseline loader of $baseline_commit in $baseline_dir..." >&2
    rm -rf "$baseline_dir" && mkdir -p "$baseline_dir" \
      && git archive "$baseline_commit" | tar -x -C "$baseline_dir" \
      && dotnet build "$baseline_dir/src/Loader.Worker" -c Release -nologo >"$baseline_dir/build.log" 2>&1 \
      || { echo "the baseline loader did not build (see $baseline_dir/build.log)" >&2; exit 3; }
  fi
  baseline_args=(--baseline-loader "$baseline_dll")
fi

scripts/ensure-tools.sh || exit 3

mkdir -p bench/results
echo "Building Release..." >&2
dotnet build bench/Loader.Benchmarks -c Release -nologo >bench/results/build.log 2>&1 || { cat bench/results/build.log >&2; exit 3; }

status=0
for command in "${commands[@]}"; do
  extra=()
  [[ $command == instant ]] && extra=("${baseline_args[@]}")
  dotnet bench/Loader.Benchmarks/bin/Release/net10.0/Loader.Benchmarks.dll "$command" "$@" "${extra[@]}"
  code=$?
  [[ $code -eq 130 ]] && exit 130 # interrupted: do not start the next one
  (( code > status )) && status=$code
  echo
done
exit $status
