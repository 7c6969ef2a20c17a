#!/usr/bin/env bash
# Runs every test: unit tests and end-to-end loads against real Azurite processes the tests start
# themselves. Prints "N passed, N failed, N skipped" last; exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")"
mkdir -p .run
scripts/ensure-tools.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

log=.run/test-output.log
measurements=.run/test-measurements.log # numbers tests record for the reader (see Infrastructure/Measurements.cs)
rm -f "$measurements"
dotnet test BulkLoader.slnx -c Release --nologo "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# One line per test assembly: "Passed!  - Failed: 0, Passed: 46, Skipped: 1, Total: 47, ..."
read -r passed failed skipped < <(grep -E '^(Passed|Failed)! +- Failed:' "$log" | awk -F'[:,]' '
  { failed += $2; passed += $4; skipped += $6; lines++ }
  END { printf "%d %d %d\n", passed, failed, skipped }')
if [[ $status -ne 0 && $failed -eq 0 ]]; then
  failed=1 # the run broke (build error, crashed test host) before tests could report
fi
if [[ -s $measurements ]]; then
  echo "Measured by the tests:"
  sed 's/^/  /' "$measurements"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[[ $status -eq 0 && $failed -eq 0 ]]
