#!/usr/bin/env bash
# Checks the Bicep templates under infra/bicep.
#
#   infra/check-bicep.sh             structural checks, then build + lint with a Bicep compiler if one is here
#   infra/check-bicep.sh --install   first fetch the Bicep CLI from NuGet into tools/.bicep/ (project-local)
#
# A compiler is looked for as: `bicep` on PATH, the one `az bicep install` puts in ~/.azure/bin,
# one fetched earlier into tools/.bicep/. Without any, the script prints SKIPPED and exits 0: the
# structural checks (infra/validate_bicep.py) still run and still fail the script on problems.
#
# Why a compiler may be missing: the Bicep CLI ships as a native binary. `az bicep install` and
# the npm wrapper bicep-node download it from GitHub / downloads.bicep.azure.com at run time, and
# the NuGet package Azure.Bicep.CommandLine.<rid> is the only registry route; a machine that
# reaches neither has no compiler.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
local_dir="tools/.bicep"

install=false
for argument in "$@"; do
  case "$argument" in
    --install) install=true ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "unknown argument: $argument" >&2; exit 2 ;;
  esac
done

echo "== structural checks (infra/validate_bicep.py)"
python3 infra/validate_bicep.py

case "$(uname -m)" in
  x86_64|amd64) rid="linux-x64" ;;
  aarch64|arm64) rid="linux-arm64" ;;
  *) rid="" ;;
esac
package="azure.bicep.commandline.${rid}"
# The package index is read from the feed of the repository's nuget.config (nuget.org); both can
# be pointed elsewhere, e.g. at a mirror.
feed="${BICEP_NUGET_FLAT_CONTAINER:-https://api.nuget.org/v3-flatcontainer}"
nuget_config="${BICEP_NUGET_CONFIG:-$repo/nuget.config}"

# Why the NuGet route is or is not open here, in one line.
nuget_status() {
  if [ -z "$rid" ]; then echo "no Bicep CLI package for $(uname -m)"; return 1; fi
  local code
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 "$feed/$package/index.json" || true)"
  case "$code" in
    200) echo "NuGet serves $package"; return 0 ;;
    000) echo "NuGet feed $feed unreachable"; return 1 ;;
    *) echo "NuGet feed $feed answers HTTP $code for $package"; return 1 ;;
  esac
}

install_from_nuget() {
  local versions version scratch binary
  versions="$(curl -fsS --max-time 30 "$feed/$package/index.json")"
  version="$(python3 -c 'import json, sys; print([v for v in json.load(sys.stdin)["versions"] if "-" not in v][-1])' <<<"$versions")"
  echo "== fetching $package $version into $local_dir (dotnet restore, repository nuget.config)"
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' RETURN
  cat > "$scratch/fetch-bicep.csproj" <<EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <ManagePackageVersionsCentrally>false</ManagePackageVersionsCentrally>
  </PropertyGroup>
  <ItemGroup>
    <PackageDownload Include="Azure.Bicep.CommandLine.${rid}" Version="[${version}]" />
  </ItemGroup>
</Project>
EOF
  dotnet restore "$scratch/fetch-bicep.csproj" --configfile "$nuget_config" --packages "$repo/$local_dir/packages" >/dev/null
  binary="$(find "$local_dir/packages/$package/$version" -type f -name bicep | head -n 1)"
  if [ -z "$binary" ]; then echo "no bicep binary in the package" >&2; return 1; fi
  chmod +x "$binary"
  echo "installed: $binary"
}

find_compiler() {
  if command -v bicep >/dev/null 2>&1; then command -v bicep; return 0; fi
  if [ -x "$HOME/.azure/bin/bicep" ]; then echo "$HOME/.azure/bin/bicep"; return 0; fi
  local fetched
  fetched="$(find "$local_dir/packages" -type f -name bicep -perm -u+x 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$fetched" ]; then echo "$fetched"; return 0; fi
  return 1
}

if $install && ! find_compiler >/dev/null; then
  if status="$(nuget_status)"; then
    install_from_nuget
  else
    echo "cannot install: $status"
  fi
fi

compiler="$(find_compiler || true)"
if [ -z "$compiler" ]; then
  if command -v az >/dev/null 2>&1 && az bicep version >/dev/null 2>&1; then
    compiler="az"
  fi
fi

if [ -z "$compiler" ]; then
  reason="no bicep on PATH, none in ~/.azure/bin, none in $local_dir"
  if command -v az >/dev/null 2>&1; then reason="$reason, az has no Bicep CLI"; else reason="$reason, no az"; fi
  if status="$(nuget_status)"; then
    reason="$reason; $status: run infra/check-bicep.sh --install"
  else
    reason="$reason; $status; GitHub/downloads.bicep.azure.com (used by az bicep install and npm bicep-node) are not reachable from here either"
  fi
  echo "SKIPPED: no Bicep compiler on this machine ($reason)"
  exit 0
fi

build() { if [ "$compiler" = az ]; then az bicep build --file "$1" --stdout >/dev/null; else "$compiler" build "$1" --stdout >/dev/null; fi; }
lint() { if [ "$compiler" = az ]; then az bicep lint --file "$1"; else "$compiler" lint "$1"; fi; }
build_params() { if [ "$compiler" = az ]; then az bicep build-params --file "$1" --stdout >/dev/null; else "$compiler" build-params "$1" --stdout >/dev/null; fi; }

if [ "$compiler" = az ]; then az bicep version; else "$compiler" --version; fi
failed=0
for file in infra/bicep/main.bicep infra/bicep/modules/*.bicep; do
  echo "== build + lint $file"
  build "$file" || failed=1
  lint "$file" || failed=1
done
for file in infra/bicep/*.bicepparam; do
  echo "== build-params $file"
  build_params "$file" || failed=1
done
if [ "$failed" -ne 0 ]; then echo "FAILED: the Bicep compiler reported errors"; exit 1; fi
echo "OK: every Bicep file builds and lints"
