#!/usr/bin/env bash
# Runs every test: unit tests and end-to-end loads against real Azurite processes the tests start
# themselves. Prints the reason of every skipped test, then "N passed, N failed, N skipped" last; exits non-zero
# when anything failed, when no test ran (a --filter that matches nothing) or when no test run reported at all.
# Extra arguments go to dotnet test: ./test.sh --filter "FullyQualifiedName~Resume"
set -uo pipefail
cd "$(dirname "$0")"
mkdir -p .run
scripts/ensure-tools.sh || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }

log=.run/test-output.log
results=.run/test-results             # one TRX file per test assembly: where the skip reasons are read
measurements=.run/test-measurements.log # numbers tests record for the reader (see Infrastructure/Measurements.cs)
rm -f "$measurements"
rm -rf "$results"
# A test that hangs (an await that never ends) fails the run after 20 minutes instead of holding CI to its limit.
dotnet test BulkLoader.slnx -c Release --nologo --results-directory "$results" --logger trx \
  --blame-hang-timeout 20m --blame-hang-dump-type none "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# One line per test assembly: "Passed!  - Failed: 0, Passed: 46, Skipped: 1, Total: 47, ..."
read -r assemblies passed failed skipped total < <(grep -E '^(Passed|Failed)! +- Failed:' "$log" | awk -F'[:,]' '
  { failed += $2; passed += $4; skipped += $6; total += $8; assemblies++ }
  END { printf "%d %d %d %d %d\n", assemblies, passed, failed, skipped, total }')

problem=""
if grep -q 'No test matches the given testcase filter' "$log" && [[ $total -eq 0 ]]; then
  problem="no test ran: the filter matches no test ($*)"
elif [[ $assemblies -eq 0 ]]; then
  problem="no test run reported a result (no 'Passed!' or 'Failed!' line in $log): the build failed, the test host crashed, or dotnet test changed its output"
elif [[ $total -eq 0 ]]; then
  problem="no test ran: the test runs report 0 tests"
elif [[ $status -ne 0 && $failed -eq 0 ]]; then
  problem="dotnet test exited with $status although no test failed: the run broke (a test host crashed or hung) after tests reported"
fi

# Skipped tests with their reasons, from the TRX files (the console shows a skipped test's name, not why).
skips="$(python3 - "$results" <<'EOF'
import glob, sys, xml.etree.ElementTree as ET
ns = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
for path in sorted(glob.glob(sys.argv[1] + "/*.trx")):
    for result in sorted(ET.parse(path).getroot().iterfind(".//t:UnitTestResult[@outcome='NotExecuted']", ns), key=lambda r: r.get("testName")):
        reason = result.findtext("t:Output/t:ErrorInfo/t:Message", default="", namespaces=ns).strip() or "(no reason given)"
        print(f"  {result.get('testName')}: {' '.join(reason.split())}")
EOF
)"

# Failed tests with the first lines of their messages, last before the count, so that a run whose output is seen
# only in its tail (CI) still names what failed and why.
failures="$(python3 - "$results" <<'EOF'
import glob, sys, xml.etree.ElementTree as ET
ns = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
for path in sorted(glob.glob(sys.argv[1] + "/*.trx")):
    for result in sorted(ET.parse(path).getroot().iterfind(".//t:UnitTestResult[@outcome='Failed']", ns), key=lambda r: r.get("testName")):
        message = result.findtext("t:Output/t:ErrorInfo/t:Message", default="", namespaces=ns).strip() or "(no message)"
        lines = [line.strip() for line in message.splitlines() if line.strip()][:6]
        print(f"  {result.get('testName')}:")
        for line in lines:
            print(f"    {line[:400]}")
        trace = result.findtext("t:Output/t:ErrorInfo/t:StackTrace", default="", namespaces=ns).strip().splitlines()
        for line in trace[:3]:
            print(f"    {line.strip()[:300]}")
EOF
)"

if [[ -s $measurements ]]; then
  echo "Measured by the tests:"
  sed 's/^/  /' "$measurements"
fi
if [[ $skipped -gt 0 ]]; then
  echo "Skipped:"
  if [[ -n $skips ]]; then
    echo "$skips"
  else
    echo "  (the reasons could not be read from $results)"
  fi
fi
if [[ -n $failures ]]; then
  echo "Failed:"
  echo "$failures"
fi
if [[ -n $problem ]]; then
  echo "FAILED: $problem"
  (( failed == 0 )) && failed=1
fi
echo "$passed passed, $failed failed, $skipped skipped"
[[ $status -eq 0 && $failed -eq 0 ]]
