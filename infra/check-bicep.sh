#!/usr/bin/env bash
# Compiles and lints the Bicep templates with the pinned Bicep CLI, allowing no warning, then checks the
# deployment's security promises on the compiled template (infra/validate_bicep.py).
#
#   infra/check-bicep.sh     restore the compiler (tools/BicepCli, from NuGet), then:
#                              bicep build main.bicep, bicep lint main.bicep (both cover the modules),
#                              bicep build-params on every .bicepparam, validate_bicep.py on the built template
#
# Prints every diagnostic, then "Bicep: N warnings, N errors" and "OK: ..." or "FAILED: ...". Exits non-zero on
# any warning, error or broken promise. The compiled template and parameter files are left in .run/bicep/.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
project=tools/BicepCli/BicepCli.csproj
out=.run/bicep
mkdir -p "$out"

if ! restore_output="$(dotnet restore "$project" --nologo 2>&1)"; then
  echo "$restore_output"
  echo "FAILED: the Bicep compiler could not be restored ($project)"
  exit 1
fi
bicep="$(dotnet msbuild "$project" -nologo -getProperty:BicepExecutable)"
if [[ ! -f "$bicep" ]]; then
  echo "FAILED: no Bicep compiler at '$bicep' after restoring $project"
  exit 1
fi
[[ -x "$bicep" ]] || chmod u+x "$bicep"
"$bicep" --version

warnings=0
errors=0
# Runs one bicep command, shows its diagnostics and counts them ("file(line,col) : Warning code: message").
run_bicep() {
  echo "== bicep $*"
  local output status
  output="$("$bicep" "$@" 2>&1)"
  status=$?
  [[ -n "$output" ]] && echo "$output"
  warnings=$((warnings + $(grep -cE '\) : Warning ' <<<"$output")))
  errors=$((errors + $(grep -cE '\) : Error ' <<<"$output")))
  if [[ $status -ne 0 ]] && ! grep -qE '\) : Error ' <<<"$output"; then
    errors=$((errors + 1)) # failed without a diagnostic line (a crash, a missing file)
  fi
}

run_bicep build infra/bicep/main.bicep --outfile "$out/main.json"
run_bicep lint infra/bicep/main.bicep
for parameters in infra/bicep/*.bicepparam; do
  run_bicep build-params "$parameters" --outfile "$out/$(basename "$parameters" .bicepparam).parameters.json"
done
echo "Bicep: $warnings warnings, $errors errors"

policy=0
if [[ -s "$out/main.json" ]]; then
  echo "== security promises (infra/validate_bicep.py)"
  python3 infra/validate_bicep.py "$out/main.json" || policy=1
else
  policy=1
fi

if [[ $warnings -ne 0 || $errors -ne 0 || $policy -ne 0 ]]; then
  echo "FAILED: the Bicep templates must compile and lint without a warning and keep their security promises"
  exit 1
fi
echo "OK: the Bicep templates compile and lint without a warning and keep their security promises"
