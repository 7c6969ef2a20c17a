#!/usr/bin/env python3
"""Structural check of docker-compose.yml for machines without Docker.

Checks what `docker compose config` would not, and what it would if Docker were here:
services have an image or a build whose Dockerfile exists (and copies, before its restore layer,
every project file the loader references plus the props files, which .dockerignore must let in); healthchecks are well formed;
depends_on names existing services with valid conditions (service_healthy needs a healthcheck);
profiles are consistent (a service that is always on cannot depend on an optional one);
network_mode "service:x" names a service; bind mounts point at existing repository paths
(a writable mount may be an output folder that .gitignore lists); the loader services'
environment uses only setting names the loader knows, and their input file is inside a mount.

Usage: python3 infra/validate_compose.py [path/to/docker-compose.yml]
Prints OK or the problems found; exit code 0 when OK, 1 otherwise.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Settings of the loader (section "Loader"), as environment variables use them after "Loader__".
# Entries ending in ":" accept any sub-key (e.g. Columns:<name>).
LOADER_SETTINGS = {
    "Input", "Format", "Json:Nested", "Json:FlattenSeparator", "Backend", "PartitionKey", "RowKey", "Columns:", "SkipColumns", "WriteMode", "BatchSize",
    "MaxParallelBatches", "MaxBufferedBytes", "MaxBufferedRows", "MaxBatchDelay", "MaxRejects", "DryRun", "Check", "ReportPath", "RejectsPath",
    "CheckpointPath", "CheckpointInterval", "LogFormat", "ConnectTimeout", "ShutdownGracePeriod", "ProgressInterval",
    "Concurrency", "MaxRequestUnitsPerSecond", "MaxRowsPerSecond", "HtmlReportPath", "ProgressBar",
    "Estimate:SampleRows", "Estimate:RampTime", "Estimate:Prices:Currency", "Estimate:Prices:PerMillionRequestUnits",
    "Estimate:Prices:PerHundredRequestUnitsPerSecondHour", "Estimate:Prices:PerTenThousandTableTransactions",
    "Estimate:Prices:TableStoragePerGigabyteMonth", "Estimate:Prices:CosmosStoragePerGigabyteMonth",
    "Csv:Delimiter", "Csv:Culture", "Csv:Compression", "Csv:MapThreads", "Csv:MaxLinesInQuotes", "Csv:MaxRecordBytes", "Csv:AllowGroupSeparators",
    "Csv:TimeZone", "Parquet:Decimal",
    "Retry:MaxAttempts", "Retry:MaxThrottledWait", "Retry:BaseDelay", "Retry:MaxDelay", "Retry:AttemptTimeout",
    "Blob:ConnectionString", "Blob:ReadBlockSize",
    "Telemetry:OtlpEndpoint", "Telemetry:OtlpProtocol", "Telemetry:ExportInterval",
    "Telemetry:AzureMonitorConnectionString", "Telemetry:AzureMonitorAuthentication",
    "Tables:ConnectionString", "Tables:Endpoint", "Tables:Table", "Tables:CreateTable", "Tables:Writer",
    "Cosmos:ConnectionString", "Cosmos:Endpoint", "Cosmos:Database", "Cosmos:Container",
    "Cosmos:PartitionKeyPath", "Cosmos:PartitionKeyPaths", "Cosmos:PathSeparator", "Cosmos:Mode",
    "Cosmos:ConnectionMode", "Cosmos:CreateIfMissing",
    "Cosmos:AutoscaleMaxThroughput", "Cosmos:Throughput", "Cosmos:TrustEmulatorCertificate",
    "Cosmos:PriorityLevel", "Cosmos:ThroughputBucket", "Cosmos:TimeToLive", "Cosmos:TimeToLiveColumn",
    "Command", "Shards:State", "Shards:Queue", "Shards:By", "Shards:Count", "Shards:TargetBytes",
    "Shards:VisibilityTimeout", "Shards:MaxDequeues", "Shards:RetryDelay", "Shards:PollInterval",
    "Verify:Extra", "Verify:ReportPath", "Verify:Examples", "Verify:RowsInMemory",
}
ENUM_SETTINGS = {
    "Backend": {"Tables", "Cosmos"},
    "Format": {"Auto", "Csv", "JsonLines", "Parquet"},
    "Json:Nested": {"Flatten", "Refuse"},
    "Parquet:Decimal": {"String", "Double"},
    "WriteMode": {"Upsert", "Merge", "Insert"},
    "LogFormat": {"Auto", "Text", "Json"},
    "Tables:Writer": {"Direct", "Sdk"},
    "Cosmos:Mode": {"TransactionalBatch", "Bulk"},
    "Cosmos:ConnectionMode": {"Direct", "Gateway"},
    "Cosmos:PriorityLevel": {"High", "Low"},
    "Concurrency": {"Adaptive", "Fixed"},
    "Command": {"Load", "Plan", "Work", "Status", "Verify"},
    "Shards:By": {"Range", "Key"},
    "Telemetry:AzureMonitorAuthentication": {"ConnectionString", "EntraId"},
}
COLUMN_TYPES = {"String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid"}
OTHER_ENV = {"AZURE_CLIENT_ID", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME", "DOTNET_ENVIRONMENT",
             "APPLICATIONINSIGHTS_CONNECTION_STRING"}
DEPENDS_CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}
INTERPOLATION = re.compile(r"\$(\$|\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-?+])[^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)")


def loader_setting_known(key: str) -> bool:
    """Whether "Columns:year" / "Tables:Table" style key is a loader setting."""
    if key in LOADER_SETTINGS:
        return True
    return any(key.startswith(prefix) and len(key) > len(prefix)
               for prefix in LOADER_SETTINGS if prefix.endswith(":"))


def check_loader_environment(where: str, env: dict, problems: list[str]) -> None:
    for name, value in env.items():
        if name.startswith("Loader__"):
            key = name[len("Loader__"):].replace("__", ":")
            if not loader_setting_known(key):
                problems.append(f"{where}: environment {name}: 'Loader:{key}' is not a loader setting")
                continue
            text = "" if value is None else str(value)
            if key in ENUM_SETTINGS and text not in ENUM_SETTINGS[key]:
                problems.append(f"{where}: {name}={text!r}, expected one of {sorted(ENUM_SETTINGS[key])}")
            if key.startswith("Columns:") and text not in COLUMN_TYPES:
                problems.append(f"{where}: {name}={text!r}, expected one of {sorted(COLUMN_TYPES)}")
            if key == "BatchSize" and (not text.isdigit() or not 1 <= int(text) <= 100):
                problems.append(f"{where}: {name}={text!r}, must be 1..100")
        elif name not in OTHER_ENV and not name.startswith(("DOTNET_", "OTEL_", "AZURE_")):
            problems.append(f"{where}: environment {name} is neither a Loader__ setting nor a known variable")


def environment_of(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):
        parsed = {}
        for item in env:
            name, _, value = str(item).partition("=")
            parsed[name] = value
        return parsed
    return dict(env)


def gitignored_dirs() -> set[str]:
    ignore = REPO / ".gitignore"
    if not ignore.exists():
        return set()
    return {line.strip().strip("/") for line in ignore.read_text().splitlines()
            if line.strip() and not line.startswith("#")}


def check_interpolation(node, where: str, problems: list[str]) -> None:
    """Every "$" must start ${VAR}, ${VAR:-default}, $VAR or the escape $$."""
    if isinstance(node, dict):
        for key, value in node.items():
            check_interpolation(value, f"{where}.{key}", problems)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            check_interpolation(value, f"{where}[{index}]", problems)
    elif isinstance(node, str):
        position = 0
        while (found := node.find("$", position)) >= 0:
            match = INTERPOLATION.match(node, found)
            if not match:
                problems.append(f"{where}: '$' at offset {found} is not ${{VAR}}, $VAR or $$")
                position = found + 1
            else:
                position = match.end()


def project_closure(project: Path) -> list[Path]:
    """The project and every project it references, transitively."""
    seen: list[Path] = []
    pending = [project.resolve()]
    while pending:
        current = pending.pop()
        if current in seen or not current.exists():
            continue
        seen.append(current)
        for reference in re.findall(r'<ProjectReference\s+Include="([^"]+)"', current.read_text()):
            pending.append((current.parent / reference.replace("\\", "/")).resolve())
    return seen


def check_dockerfile(dockerfile: Path, problems: list[str]) -> None:
    """The restore layer must see every project file the loader builds from, and the props files."""
    text = dockerfile.read_text()
    where = dockerfile.relative_to(REPO).as_posix()
    def copied_in(part: str) -> set[str]:
        sources: set[str] = set()
        for line in part.splitlines():
            match = re.match(r"\s*COPY\s+(?!--from)(.*)$", line)
            if match:
                sources.update(source for source in match.group(1).split()[:-1] if not source.startswith("--"))
        return sources

    before_restore = text.split("dotnet restore", 1)[0]
    before_publish = text.split("dotnet publish", 1)[0]
    copied = copied_in(before_restore)
    for required in ("global.json", "nuget.config", "Directory.Build.props", "Directory.Packages.props"):
        if (REPO / required).exists() and required not in copied:
            problems.append(f"{where}: {required} is not copied before `dotnet restore`")
    if (REPO / ".editorconfig").exists() and ".editorconfig" not in copied_in(before_publish):
        problems.append(f"{where}: .editorconfig is not copied before `dotnet publish` (warnings are errors; its analyzer severities must match the repository build)")
    copied |= copied_in(before_publish)
    entry = REPO / "src/Loader.Worker/Loader.Worker.csproj"
    for project in project_closure(entry):
        relative = project.relative_to(REPO).as_posix()
        if relative not in copied:
            problems.append(f"{where}: {relative} (referenced by the loader) is not copied before `dotnet restore`")
        if not relative.startswith("src/"):
            problems.append(f"{where}: {relative} lies outside src/, which is all the build stage copies")
    ignore = REPO / ".dockerignore"
    if ignore.exists():
        patterns = [line.strip().rstrip("/") for line in ignore.read_text().splitlines()
                    if line.strip() and not line.startswith("#")]
        for source in copied:
            if any(source == pattern or source.startswith(pattern + "/") for pattern in patterns):
                problems.append(f"{where}: {source} is copied but .dockerignore keeps it out of the context")
    if not re.search(r'^ENTRYPOINT\s+\["dotnet",\s*"Loader\.Worker\.dll"\]', text, re.M):
        problems.append(f'{where}: ENTRYPOINT is not ["dotnet", "Loader.Worker.dll"] (exec form)')
    if not re.search(r"^USER\s+\S+", text, re.M):
        problems.append(f"{where}: no USER: the container would run as root")


def report(problems: list[str], ok_line: str, notes: list[str]) -> int:
    """Prints the problems, or the OK line when there are none, then the notes; the exit code."""
    if problems:
        print("problems:")
        for problem in problems:
            print(f"  - {problem}")
    else:
        print(ok_line)
    for note in notes:
        print(f"note: {note}")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    try:
        import yaml  # PyYAML
    except ImportError:
        print("problems:\n  - PyYAML is not installed (pip install pyyaml, or apt-get install python3-yaml)")
        return 1

    path = Path(argv[1]) if len(argv) > 1 else REPO / "docker-compose.yml"
    problems: list[str] = []
    notes: list[str] = []
    try:
        document = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as error:
        print(f"problems:\n  - cannot load {path}: {error}")
        return 1

    if not isinstance(document, dict) or not isinstance(document.get("services"), dict):
        print(f"problems:\n  - {path}: no 'services' mapping")
        return 1
    unknown_top = set(document) - {"name", "services", "volumes", "networks", "configs", "secrets", "include"} \
        - {key for key in document if str(key).startswith("x-")}
    if unknown_top:
        problems.append(f"top level: unknown keys {sorted(unknown_top)}")
    if "version" in document:
        notes.append("top-level 'version' is obsolete in Compose v2")

    services: dict = document["services"]
    base = path.parent
    ignored = gitignored_dirs()
    check_interpolation(document, "compose", problems)
    dockerfiles_checked: set[Path] = set()

    for name, service in services.items():
        where = f"services.{name}"
        if not isinstance(service, dict):
            problems.append(f"{where}: not a mapping")
            continue
        if "image" not in service and "build" not in service:
            problems.append(f"{where}: neither image nor build")
        build = service.get("build")
        if build is not None:
            context = build if isinstance(build, str) else build.get("context", ".")
            dockerfile = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
            context_path = (base / context).resolve()
            if not context_path.is_dir():
                problems.append(f"{where}: build context {context!r} does not exist")
            elif not (context_path / dockerfile).is_file():
                problems.append(f"{where}: {dockerfile!r} not found in build context {context!r}")
            elif (context_path / dockerfile).resolve() not in dockerfiles_checked:
                dockerfiles_checked.add((context_path / dockerfile).resolve())
                check_dockerfile((context_path / dockerfile).resolve(), problems)
        image = service.get("image")
        if image is not None and (not isinstance(image, str) or not image.strip()):
            problems.append(f"{where}: image is empty")

        profiles = set(service.get("profiles") or [])

        health = service.get("healthcheck")
        if health is not None:
            test = health.get("test")
            if isinstance(test, list):
                if not test or test[0] not in ("CMD", "CMD-SHELL", "NONE"):
                    problems.append(f"{where}: healthcheck.test list must start with CMD, CMD-SHELL or NONE")
                elif test[0] != "NONE" and len(test) < 2:
                    problems.append(f"{where}: healthcheck.test has no command")
            elif not isinstance(test, str) or not test.strip():
                problems.append(f"{where}: healthcheck.test missing")
            for key in ("interval", "timeout", "start_period"):
                value = health.get(key)
                if value is not None and not re.fullmatch(r"(\d+(ms|s|m|h))+", str(value)):
                    problems.append(f"{where}: healthcheck.{key}={value!r} is not a duration like 5s")
            retries = health.get("retries")
            if retries is not None and (not isinstance(retries, int) or retries < 1):
                problems.append(f"{where}: healthcheck.retries must be a positive integer")

        depends = service.get("depends_on") or {}
        if isinstance(depends, list):
            depends = {dependency: {"condition": "service_started"} for dependency in depends}
        for dependency, options in depends.items():
            if dependency not in services:
                problems.append(f"{where}: depends_on unknown service {dependency!r}")
                continue
            condition = (options or {}).get("condition", "service_started")
            if condition not in DEPENDS_CONDITIONS:
                problems.append(f"{where}: depends_on {dependency}: unknown condition {condition!r}")
            if condition == "service_healthy" and not services[dependency].get("healthcheck"):
                problems.append(f"{where}: waits for {dependency} to be healthy, but {dependency} has no healthcheck")
            dependency_profiles = set(services[dependency].get("profiles") or [])
            if dependency_profiles and not (profiles and profiles <= dependency_profiles):
                problems.append(f"{where}: depends on {dependency} (profiles {sorted(dependency_profiles)}) "
                                f"but is active without it (profiles {sorted(profiles) or 'none'})")

        network_mode = service.get("network_mode")
        if isinstance(network_mode, str) and network_mode.startswith("service:"):
            target = network_mode.split(":", 1)[1]
            if target not in services:
                problems.append(f"{where}: network_mode names unknown service {target!r}")
            if "ports" in service:
                problems.append(f"{where}: ports cannot be published with network_mode {network_mode!r}")
            target_profiles = set(services.get(target, {}).get("profiles") or [])
            if target_profiles and not (profiles and profiles <= target_profiles):
                problems.append(f"{where}: shares the network of {target}, which has profiles {sorted(target_profiles)}")

        mounts: dict[str, Path] = {}
        for volume in service.get("volumes") or []:
            if isinstance(volume, dict):
                source, target, read_only = volume.get("source", ""), volume.get("target", ""), volume.get("read_only", False)
                kind = volume.get("type", "volume")
            else:
                parts = str(volume).split(":")
                source, target = parts[0], parts[1] if len(parts) > 1 else ""
                read_only = len(parts) > 2 and "ro" in parts[2].split(",")
                kind = "bind" if source.startswith((".", "/", "~")) else "volume"
            if kind != "bind":
                if source and source not in (document.get("volumes") or {}):
                    problems.append(f"{where}: named volume {source!r} is not declared under top-level volumes")
                continue
            host = (base / source).resolve() if not source.startswith("/") else Path(source)
            mounts[target] = host
            if host.exists():
                continue
            try:
                relative = host.relative_to(REPO).as_posix()
            except ValueError:
                relative = None
            if read_only or relative is None:
                problems.append(f"{where}: bind mount source {source!r} does not exist")
            elif relative in ignored:
                notes.append(f"{where}: {source!r} is an output folder (in .gitignore); create it before `up`")
            else:
                problems.append(f"{where}: writable bind mount {source!r} does not exist and is not in .gitignore")

        env = environment_of(service)
        if any(key.startswith("Loader__") for key in env):
            check_loader_environment(where, env, problems)
            input_path = str(env.get("Loader__Input", ""))
            if not input_path:
                problems.append(f"{where}: Loader__Input is not set")
            elif input_path.startswith("/"):
                mount = next((target for target in mounts if input_path.startswith(target.rstrip("/") + "/")), None)
                if mount is None:
                    problems.append(f"{where}: Loader__Input {input_path!r} is not inside a mounted folder")
                elif not (mounts[mount] / input_path[len(mount):].lstrip("/")).exists():
                    problems.append(f"{where}: Loader__Input {input_path!r} maps to a host file that does not exist")
            for setting in ("Loader__ReportPath", "Loader__RejectsPath", "Loader__CheckpointPath"):
                value = str(env.get(setting, ""))
                if value.startswith("/") and not any(value.startswith(t.rstrip("/") + "/") for t in mounts):
                    problems.append(f"{where}: {setting} {value!r} is not inside a mounted folder (lost with the container)")
            backend = env.get("Loader__Backend", "Tables")
            if backend == "Tables":
                connection = str(env.get("Loader__Tables__ConnectionString", ""))
                for host, port in re.findall(r"TableEndpoint=https?://([^:/;]+):(\d+)", connection):
                    if host not in services and host not in ("localhost", "127.0.0.1"):
                        problems.append(f"{where}: TableEndpoint host {host!r} is not a service")
                    elif host in services and host not in depends:
                        problems.append(f"{where}: uses {host} but does not depend on it")
            if backend == "Cosmos":
                if str(env.get("Loader__Cosmos__ConnectionMode", "")) != "Gateway":
                    problems.append(f"{where}: the Cosmos DB emulator needs Loader__Cosmos__ConnectionMode=Gateway")
                if str(env.get("Loader__Cosmos__TrustEmulatorCertificate", "")).lower() != "true":
                    notes.append(f"{where}: TrustEmulatorCertificate is off; the emulator's certificate must be trusted")

    if "azurite" in services:
        azurite = services["azurite"]
        command = azurite.get("command") or []
        command_text = " ".join(command) if isinstance(command, list) else str(command)
        for flag in ("--skipApiVersionCheck", "--loose"):
            if flag not in command_text:
                problems.append(f"services.azurite: command lacks {flag}")
        if "--tableHost 0.0.0.0" not in command_text or "--blobHost 0.0.0.0" not in command_text:
            problems.append("services.azurite: table and blob must listen on 0.0.0.0 to be reachable from other containers")
        test = azurite.get("healthcheck", {}).get("test")
        if "10002" not in (" ".join(test) if isinstance(test, list) else str(test)):
            problems.append("services.azurite: healthcheck does not probe the table port 10002")

    return report(problems, f"OK: {path.relative_to(REPO) if path.is_relative_to(REPO) else path}: "
                            f"{len(services)} services ({', '.join(services)})", notes)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
