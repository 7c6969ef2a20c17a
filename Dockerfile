# The bulk loader as a container image: one load per container run, exit code = the loader's.
#
#   docker build -t bulk-loader .
#   docker run --rm -v "$PWD/data:/data:ro" bulk-loader --input /data/sample.csv --table flights ...
#
# Settings come from the environment (Loader__Input, Loader__Tables__Endpoint, ...) or from
# arguments appended after the image name; nothing secret is baked into the image.

ARG DOTNET_VERSION=10.0

# ---------------------------------------------------------------------------------------------
# build: restore with the repository's nuget.config and central package versions, then publish.
# ---------------------------------------------------------------------------------------------
FROM mcr.microsoft.com/dotnet/sdk:${DOTNET_VERSION} AS build
ENV DOTNET_CLI_TELEMETRY_OPTOUT=1 \
    DOTNET_NOLOGO=1 \
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
    NUGET_XMLDOC_MODE=skip
WORKDIR /src

# Only what restore reads, so the restore layer is reused until a project file or a package
# version changes. A new project the loader references needs its own line here
# (infra/validate_compose.py checks the list against the project references).
COPY global.json nuget.config Directory.Build.props Directory.Packages.props ./
COPY src/Loader.Abstractions/Loader.Abstractions.csproj src/Loader.Abstractions/
COPY src/Loader.Worker/Loader.Worker.csproj src/Loader.Worker/
# For the architecture the image is built for (BuildKit sets TARGETARCH; amd64 without it): ReadyToRun code is native.
ARG TARGETARCH=amd64
RUN dotnet restore src/Loader.Worker/Loader.Worker.csproj -a $TARGETARCH -p:PublishReadyToRun=true

# The sources (bin/ and obj/ are kept out by .dockerignore, so the restore above stands), and
# .editorconfig: the build treats warnings as errors, so the image must be built with the same
# analyzer severities as the repository build (.editorconfig turns several CA rules off).
COPY .editorconfig ./
COPY src/ src/
# ReadyToRun: every assembly carries native code beside its IL, so a start runs it instead of compiling each method it
# meets (see the runtime stage below for what that buys and costs).
RUN dotnet publish src/Loader.Worker/Loader.Worker.csproj -c Release -o /app --no-restore \
      -a $TARGETARCH --self-contained false -p:PublishReadyToRun=true -p:UseAppHost=false

# ---------------------------------------------------------------------------------------------
# runtime: framework-dependent on the .NET runtime image, the app's assemblies ReadyToRun.
#
# ReadyToRun, because a job that starts often on a small load spends a noticeable share of its
# time compiling its start-up path: bench/run.sh startup measures the difference, and
# bench/README.md keeps the figures (start-up, CPU, image size, publish time). On a load of hours
# it neither helps nor harms: the runtime recompiles the hot methods either way. It costs larger
# managed assemblies (the image is no larger, as only this architecture's native libraries are
# kept) and a longer publish.
# Not self-contained: framework-dependent keeps the app on a shared, regularly patched runtime
# layer (a self-contained app carries its own ~70 MB runtime that only a rebuild patches). Not
# trimmed: trimming would put the reflection-based configuration binding, the Azure SDK and
# CsvHelper at risk of losing members at run time. Not "chiseled" or invariant globalization
# either: Loader:Csv:Culture needs ICU, which the regular runtime image ships.
# ---------------------------------------------------------------------------------------------
FROM mcr.microsoft.com/dotnet/runtime:${DOTNET_VERSION} AS runtime

LABEL org.opencontainers.image.title="bulk-loader" \
      org.opencontainers.image.description="Streams a CSV into Azure Table Storage or Azure Cosmos DB for NoSQL, then exits with a status code."

# A short-lived, single-process batch job:
# - workstation GC (also set in the project) keeps the heap small on a 0.5-2 vCPU replica;
#   server GC would reserve a heap per core for a process that lives minutes.
# - Production, so no development-only configuration is picked up by accident.
# - a 96 MiB young generation, three times the 32 MiB of rows Loader:MaxBufferedBytes lets wait in partial batches:
#   rows then mostly leave in a batch before a second collection would promote them, where the default (a few MiB)
#   promotes and rescans them, which cost about a third of the CPU per row (docs/throttling.md#memory-and-cpu). An
#   environment variable because the runtime reads this knob from nowhere else.
ENV DOTNET_gcServer=0 \
    DOTNET_GCgen0size=0x6000000 \
    DOTNET_ENVIRONMENT=Production

WORKDIR /app
# Files stay owned by root: the app user can read and run them but not change them.
COPY --from=build /app ./

# The runtime images ship a non-root user "app" (UID 1654) and export its id as APP_UID.
USER $APP_UID

# Exec form: dotnet is PID 1 and receives SIGTERM directly (the loader stops reading, lets
# in-flight batches finish within Loader:ShutdownGracePeriod, writes checkpoint and report);
# arguments given to `docker run IMAGE ...` or the job's args are appended; the container's
# exit code is the loader's (0 success, 1 rows failed, 2 invalid settings, 3 unavailable,
# 4 reject limit, 5 stopped, 10 unexpected).
ENTRYPOINT ["dotnet", "Loader.Worker.dll"]
