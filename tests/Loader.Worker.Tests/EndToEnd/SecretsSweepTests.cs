using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Azure.Storage;
using Azure.Storage.Blobs;
using Azure.Storage.Queues;
using Azure.Storage.Sas;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Hosting;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;
using Loader.Worker.Tests.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// One distinct secret planted in every setting and variable that can carry one (connection strings, a Tables endpoint
/// with a SAS, telemetry endpoints with a password and a token, the input's and every output's blob URL with a SAS, the
/// shard state folder and queue, the OTLP and Application Insights variables), then every command run as a user runs
/// it, each its own process on Azurite's Blob, Queue and Table services: load, <c>--check</c>, <c>--estimate</c>,
/// <c>--dry-run</c>, <c>plan</c>, <c>work</c>, <c>status</c>, a load whose key is refused, a Cosmos DB load that reaches
/// nothing, settings that do not bind or validate; and in-process, an adapter (a test double) whose service quotes the
/// secrets back or which crashes with them. Then everything written is searched for every planted value, as written,
/// URL-encoded and decoded, JSON- and HTML-escaped, and for its first third: standard output and error, every file in
/// the test's folder, every blob in every container but the input's, every message in every queue.
/// </summary>
public sealed class SecretsSweepTests : IDisposable
{
    private const string AccountName = "devstoreaccount1";
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(2);

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();
    private readonly List<(string Name, string Value)> _planted = [];
    private readonly List<(string Where, string Text)> _written = [];

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task No_command_writes_a_planted_secret_to_its_output_files_blobs_or_queues()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withQueue: true, cancellationToken: _cancellation);
        using var otlp = new TelemetryReceiver();
        using var ingestion = new TelemetryReceiver("{\"itemsReceived\":0,\"itemsAccepted\":0,\"errors\":[]}");
        var input = await UploadInputAsync(azurite);
        var load = Settings(azurite, input, otlp, ingestion, "load");
        var environment = Environment(otlp, ingestion);

        await RunAsync("load", ExitCodes.Success, [], load, environment);
        await RunAsync("check", ExitCodes.Success, [], With(Settings(azurite, input, otlp, ingestion, "check"), ("Loader:Check", "true")), environment);
        var estimate = Settings(azurite, input, otlp, ingestion, "estimate");
        estimate.Remove("Loader:Tables:Endpoint");
        estimate["Loader:Tables:ConnectionString"] = $"TableEndpoint={azurite.TableEndpoint};SharedAccessSignature={Sas("Loader:Tables:ConnectionString (SAS)", AccountSasServices.Tables)}";
        await RunAsync("estimate", ExitCodes.Success, [LoaderSwitches.EstimateSwitch, "--sample", "20"], estimate, environment);
        await RunAsync("dry run", ExitCodes.Success, [], With(load,
            ("Loader:DryRun", "true"),
            ("Loader:ReportPath", _directory.File("dry/report.json")),
            ("Loader:HtmlReportPath", _directory.File("dry/report.html")),
            ("Loader:RejectsPath", _directory.File("dry/rejects.csv")),
            ("Loader:CheckpointPath", _directory.File("dry/checkpoint.json"))), environment);

        // A sharded load: the telemetry from the variables alone, the shards' outputs in the state folder.
        var sharded = ShardedSettings(azurite, input, load);
        await RunAsync("plan", ExitCodes.Success, ["plan"], sharded, environment);
        await ReadQueuesAsync(azurite, "after plan");
        await RunAsync("work", ExitCodes.Success, ["work"], sharded, environment);
        await RunAsync("status", ExitCodes.Success, ["status"], With(sharded,
            ("Loader:ReportPath", $"{azurite.BlobEndpoint}/outputs/status/status.json?{Sas("Loader:ReportPath (status)", AccountSasServices.Blobs)}")), environment);

        var refused = Settings(azurite, input, otlp, ingestion, "refused");
        refused.Remove("Loader:Tables:Endpoint");
        refused["Loader:Tables:ConnectionString"] =
            $"DefaultEndpointsProtocol=http;AccountName={AccountName};AccountKey={Plant("Loader:Tables:ConnectionString (refused key)", Base64Key("PLANTED-TABLES-KEY-7f3a"))};TableEndpoint={azurite.TableEndpoint}";
        refused["Loader:LogFormat"] = "Text";
        await RunAsync("load with a refused key", ExitCodes.Unavailable, [], refused, environment);

        var cosmos = Settings(azurite, input, otlp, ingestion, "cosmos");
        cosmos.Remove("Loader:Tables:Endpoint");
        cosmos["Loader:Backend"] = "Cosmos";
        cosmos["Loader:Cosmos:Database"] = "db";
        cosmos["Loader:Cosmos:Container"] = "flights";
        cosmos["Loader:ConnectTimeout"] = "00:00:03";
        await RunAsync("Cosmos DB load that reaches nothing", ExitCodes.Unavailable, [], cosmos, environment);

        // Secrets given to the wrong setting: the binder quotes a value it cannot convert, a validator quotes a value it refuses.
        await RunAsync("a setting that does not bind", ExitCodes.InvalidConfiguration, [], With(load, ("Loader:BatchSize", load["Loader:Blob:ConnectionString"])), environment);
        await RunAsync("a setting that does not validate", ExitCodes.InvalidConfiguration, [], With(load, ("Loader:Csv:Delimiter", load["Loader:Telemetry:OtlpEndpoint"])), environment);

        await ReadQueuesAsync(azurite, "at the end");
        await ReadBlobsAsync(azurite);
        ReadFiles();
        AssertNothingPlantedWasWritten();
    }

    /// <summary>How each behaviour of the test double ends the load, and what the log then says before it quotes the secrets.</summary>
    private static readonly Dictionary<SecretQuotingAdapterDouble.Behaviour, (int ExitCode, string Said)> s_expected = new()
    {
        [SecretQuotingAdapterDouble.Behaviour.Complains] = (ExitCodes.RowsFailed, "403 AuthorizationFailure: "),
        [SecretQuotingAdapterDouble.Behaviour.Throws] = (ExitCodes.RowsFailed, "the adapter broke: "),
        [SecretQuotingAdapterDouble.Behaviour.Unreachable] = (ExitCodes.Unavailable, "cannot connect: "),
        [SecretQuotingAdapterDouble.Behaviour.Crashes] = (ExitCodes.InternalError, "The load failed unexpectedly"),
    };

    [Fact]
    public async Task An_adapter_whose_service_quotes_the_secrets_back_or_that_crashes_with_them_writes_none_of_them()
    {
        await using var azurite = await AzuriteProcess.StartAsync(withBlob: true, cancellationToken: _cancellation);
        using var otlp = new TelemetryReceiver();
        using var ingestion = new TelemetryReceiver("{\"itemsReceived\":0,\"itemsAccepted\":0,\"errors\":[]}");
        var input = await UploadInputAsync(azurite);

        foreach (var behaviour in Enum.GetValues<SecretQuotingAdapterDouble.Behaviour>())
        {
            var settings = Settings(azurite, input, otlp, ingestion, behaviour.ToString().ToLowerInvariant());
            var quote = Quote(settings);
            var run = await LoaderRunner.RunAsync(settings, _cancellation, services => services.AddSingleton<IBackendAdapter>(provider =>
                new SecretQuotingAdapterDouble(BackendFactory.Create(provider.GetRequiredService<IOptions<LoaderOptions>>().Value, TimeProvider.System), behaviour, quote)));

            var (exitCode, said) = s_expected[behaviour];
            Assert.True(run.ExitCode == exitCode, $"{behaviour}: exit {run.ExitCode}, expected {exitCode}{System.Environment.NewLine}{run.Logs.AllText}");
            Assert.Contains(said, run.Logs.AllText, StringComparison.Ordinal);
            _written.Add(($"{behaviour}: summary", run.Summary));
            _written.Add(($"{behaviour}: logs", run.Logs.AllText));
            _written.Add(($"{behaviour}: standard error", run.Error));
        }

        await ReadBlobsAsync(azurite);
        ReadFiles();
        AssertNothingPlantedWasWritten();
    }

    /// <summary>
    /// What the test double's service says: each planted value of these settings alone (a key, a signature, an
    /// instrumentation key, a password), and in the URLs and connection strings it came in.
    /// </summary>
    private string Quote(Dictionary<string, string?> settings)
    {
        var present = _planted.Where(secret => settings.Values.Any(value => value?.Contains(secret.Value, StringComparison.Ordinal) == true
            || value?.Contains(Uri.EscapeDataString(secret.Value), StringComparison.Ordinal) == true));
        return string.Join("; ", present.Select(secret => secret.Value)) + "; "
            + string.Join("; ", settings.Where(setting => setting.Key.Contains("Path", StringComparison.Ordinal) || setting.Key.Contains("Connection", StringComparison.Ordinal)
                || setting.Key.EndsWith("Endpoint", StringComparison.Ordinal) || setting.Key == "Loader:Input").Select(setting => setting.Value));
    }

    /// <summary>The settings of a Tables load of the input blob, with a secret planted in every setting that can carry one.</summary>
    private Dictionary<string, string?> Settings(AzuriteProcess azurite, string input, TelemetryReceiver otlp, TelemetryReceiver ingestion, string run)
    {
        var outputs = $"{azurite.BlobEndpoint}/outputs/{run}";
        var otlpAddress = new Uri(otlp.Address);
        return new Dictionary<string, string?>
        {
            ["Loader:Input"] = $"{input}?{Sas($"Loader:Input ({run})", AccountSasServices.Blobs)}",
            ["Loader:Tables:Endpoint"] = $"{azurite.TableEndpoint}?{Sas($"Loader:Tables:Endpoint ({run})", AccountSasServices.Tables)}",
            ["Loader:Tables:Table"] = AzuriteFixture.UniqueTableName("sweep"),
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:Columns:n"] = "Int32",
            ["Loader:ReportPath"] = $"{outputs}/report.json?{Sas($"Loader:ReportPath ({run})", AccountSasServices.Blobs)}",
            ["Loader:HtmlReportPath"] = $"{outputs}/report.html?{Sas($"Loader:HtmlReportPath ({run})", AccountSasServices.Blobs)}",
            ["Loader:RejectsPath"] = $"{outputs}/rejects.csv?{Sas($"Loader:RejectsPath ({run})", AccountSasServices.Blobs)}",
            ["Loader:CheckpointPath"] = $"{outputs}/checkpoint.json?{Sas($"Loader:CheckpointPath ({run})", AccountSasServices.Blobs)}",
            ["Loader:Blob:ConnectionString"] =
                $"BlobEndpoint={azurite.BlobEndpoint};QueueEndpoint={azurite.QueueEndpoint};SharedAccessSignature={Sas($"Loader:Blob:ConnectionString ({run})", AccountSasServices.Blobs | AccountSasServices.Queues)}",
            ["Loader:Cosmos:ConnectionString"] = $"AccountEndpoint=https://127.0.0.1:{AzuriteProcess.FreePort()}/;AccountKey={Plant($"Loader:Cosmos:ConnectionString ({run})", Base64Key($"PLANTED-COSMOS-KEY-{run}"))};",
            ["Loader:Telemetry:AzureMonitorConnectionString"] =
                $"InstrumentationKey={Plant($"Loader:Telemetry:AzureMonitorConnectionString ({run})", $"7f3a5eed-{_planted.Count:D4}-4c1e-8f27-2b6d0c9e7a11")};IngestionEndpoint={ingestion.Address}",
            ["Loader:Telemetry:OtlpEndpoint"] =
                $"http://collector:{Plant($"Loader:Telemetry:OtlpEndpoint password ({run})", $"PLANTED-OTLP-PASSWORD-{run}")}@{otlpAddress.Authority}/?token={Plant($"Loader:Telemetry:OtlpEndpoint token ({run})", $"PLANTED-OTLP-TOKEN-{run}")}",
            ["Loader:Telemetry:OtlpProtocol"] = "HttpProtobuf",
            ["Loader:Telemetry:ExportInterval"] = "00:00:01",
            ["Logging:LogLevel:Default"] = "Trace", // everything the loader, the host and the SDKs would ever log
        };
    }

    /// <summary>The load's settings for the verbs of a sharded load: its state folder and queue, no checkpoint or rejects of its own, telemetry from the variables.</summary>
    private Dictionary<string, string?> ShardedSettings(AzuriteProcess azurite, string input, Dictionary<string, string?> load)
    {
        var sharded = new Dictionary<string, string?>(load);
        foreach (var key in (string[])["Loader:CheckpointPath", "Loader:RejectsPath", "Loader:ReportPath", "Loader:HtmlReportPath", "Loader:Telemetry:AzureMonitorConnectionString", "Loader:Telemetry:OtlpEndpoint", "Loader:Telemetry:OtlpProtocol"])
        {
            sharded.Remove(key);
        }

        sharded["Loader:Input"] = $"{input}?{Sas("Loader:Input (sharded)", AccountSasServices.Blobs)}";
        sharded["Loader:Shards:State"] = $"{azurite.BlobEndpoint}/state/sweep/?{Sas("Loader:Shards:State", AccountSasServices.Blobs)}";
        sharded["Loader:Shards:Queue"] = $"{azurite.QueueEndpoint}/sweep-shards?{Sas("Loader:Shards:Queue", AccountSasServices.Queues)}";
        sharded["Loader:Shards:VisibilityTimeout"] = "00:00:20";
        sharded["Loader:Shards:RetryDelay"] = "00:00:00";
        sharded["Loader:Shards:PollInterval"] = "00:00:01";
        return sharded;
    }

    /// <summary>The environment of every process: the OTLP endpoint and the Application Insights connection string as variables, each with its own secrets.</summary>
    private Dictionary<string, string?> Environment(TelemetryReceiver otlp, TelemetryReceiver ingestion) => new()
    {
        ["OTEL_EXPORTER_OTLP_ENDPOINT"] =
            $"http://collector:{Plant("OTEL_EXPORTER_OTLP_ENDPOINT password", "PLANTED-ENV-OTLP-PASSWORD-7f3a")}@{new Uri(otlp.Address).Authority}/?token={Plant("OTEL_EXPORTER_OTLP_ENDPOINT token", "PLANTED-ENV-OTLP-TOKEN-7f3a")}",
        ["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf",
        ["APPLICATIONINSIGHTS_CONNECTION_STRING"] =
            $"InstrumentationKey={Plant("APPLICATIONINSIGHTS_CONNECTION_STRING", "7f3a5eed-e0e0-4c1e-8f27-2b6d0c9e7a11")};IngestionEndpoint={ingestion.Address}",
        // The exporter's own statistics would ask the cloud's metadata address where they run; the tests talk to loopback only.
        ["APPLICATIONINSIGHTS_STATSBEAT_DISABLED"] = "true",
        ["APPLICATIONINSIGHTS_SDKSTATS_DISABLED"] = "true",
    };

    /// <summary>A small CSV with two rows that do not map (rejects) in a blob; returns its URL without a signature.</summary>
    private async Task<string> UploadInputAsync(AzuriteProcess azurite)
    {
        var csv = new CsvText("pk", "rk", "n");
        for (var i = 0; i < 60; i++)
        {
            csv.Row($"p{i % 6}", $"r{i}", i % 29 == 5 ? "not-a-number" : i);
        }

        var container = new BlobServiceClient(azurite.ConnectionString).GetBlobContainerClient("input");
        await container.CreateIfNotExistsAsync(cancellationToken: _cancellation);
        await container.GetBlobClient("flights.csv").UploadAsync(BinaryData.FromString(csv.ToString()), overwrite: true, _cancellation);
        return $"{azurite.BlobEndpoint}/input/flights.csv";
    }

    private async Task RunAsync(string command, int expected, string[] verbAndSwitches, Dictionary<string, string?> settings, Dictionary<string, string?> environment)
    {
        var verb = verbAndSwitches is [var first, ..] && !first.StartsWith("--", StringComparison.Ordinal) ? first : null;
        string[] arguments = [.. verb is null ? [] : new[] { verb }, .. settings.Select(setting => $"--{setting.Key}={setting.Value}"), .. verbAndSwitches.Skip(verb is null ? 0 : 1)];
        await using var loader = LoaderProcess.StartWithArguments(arguments, environment);
        var exitCode = await loader.WaitForExitAsync(s_timeout, _cancellation);
        _written.Add(($"{command}: standard output and error", loader.Output));
        Assert.True(exitCode == expected, $"{command}: exit {exitCode}, expected {expected}{System.Environment.NewLine}{loader.Output}");
    }

    /// <summary>The text of every blob the loader wrote: every container but the input's.</summary>
    private async Task ReadBlobsAsync(AzuriteProcess azurite)
    {
        var service = new BlobServiceClient(azurite.ConnectionString);
        var blobs = 0;
        await foreach (var container in service.GetBlobContainersAsync(cancellationToken: _cancellation))
        {
            if (container.Name == "input")
            {
                continue;
            }

            var client = service.GetBlobContainerClient(container.Name);
            await foreach (var blob in client.GetBlobsAsync(cancellationToken: _cancellation))
            {
                var content = (await client.GetBlobClient(blob.Name).DownloadContentAsync(_cancellation)).Value.Content;
                _written.Add(($"blob {container.Name}/{blob.Name}", content.ToString()));
                blobs++;
            }
        }

        Assert.True(blobs > 0, "no blob was written");
    }

    /// <summary>The text of every message in every queue (shards and their poison queue).</summary>
    private async Task ReadQueuesAsync(AzuriteProcess azurite, string when)
    {
        var service = new QueueServiceClient($"DefaultEndpointsProtocol=http;AccountName={AccountName};AccountKey={AzuriteProcess.DevelopmentAccountKey};QueueEndpoint={azurite.QueueEndpoint}");
        await foreach (var queue in service.GetQueuesAsync(cancellationToken: _cancellation))
        {
            foreach (var message in (await service.GetQueueClient(queue.Name).PeekMessagesAsync(32, _cancellation)).Value)
            {
                _written.Add(($"queue {queue.Name} {when}", message.MessageText));
            }
        }
    }

    /// <summary>The text of every file in the test's folder (the dry run's outputs).</summary>
    private void ReadFiles()
    {
        foreach (var file in Directory.EnumerateFiles(_directory.Path, "*", SearchOption.AllDirectories))
        {
            _written.Add(($"file {Path.GetRelativePath(_directory.Path, file)}", File.ReadAllText(file)));
        }
    }

    private void AssertNothingPlantedWasWritten()
    {
        Assert.True(_planted.Count >= 20, $"only {_planted.Count} secrets were planted");
        var leaks = (
            from secret in _planted
            from form in Forms(secret.Value)
            from written in _written
            let at = written.Text.IndexOf(form.Text, StringComparison.Ordinal)
            where at >= 0
            select $"{secret.Name} ({form.Name} '{form.Text}') in {written.Where}: …{Context(written.Text, at)}…").ToList();

        Assert.True(leaks.Count == 0, $"{leaks.Count} planted secret(s) written:{System.Environment.NewLine}{string.Join(System.Environment.NewLine, leaks)}");
        Measurements.Record(string.Create(CultureInfo.InvariantCulture,
            $"{_planted.Count} planted secrets, none found in {_written.Count} outputs ({_written.Count(written => written.Where.StartsWith("blob ", StringComparison.Ordinal))} blobs, {_written.Count(written => written.Where.StartsWith("file ", StringComparison.Ordinal))} files, {_written.Count(written => written.Where.StartsWith("queue ", StringComparison.Ordinal))} queue messages, {_written.Sum(written => written.Text.Length):N0} characters)"));
    }

    /// <summary>A value as it may appear in text: as written, URL-encoded and decoded, JSON- and HTML-escaped, and its first third (a value cut short).</summary>
    private static IEnumerable<(string Name, string Text)> Forms(string value) => new (string Name, string Text)[]
        {
            ("as planted", value),
            ("URL-encoded", Uri.EscapeDataString(value)),
            ("URL-decoded", Uri.UnescapeDataString(value)),
            ("JSON-escaped", JsonEncodedText.Encode(value).ToString()),
            ("JSON-escaped, relaxed", JsonEncodedText.Encode(value, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).ToString()),
            ("HTML-escaped", WebUtility.HtmlEncode(value)),
            ("its first third", value[..(value.Length / 3)]),
        }.Where(form => form.Text.Length >= 8).DistinctBy(form => form.Text);

    private static string Context(string text, int at)
    {
        var start = Math.Max(0, at - 80);
        return text[start..Math.Min(text.Length, at + 80)].ReplaceLineEndings(" ");
    }

    /// <summary>Mints an account SAS of Azurite's account (the emulator checks its signature) and plants its signature.</summary>
    private string Sas(string name, AccountSasServices services)
    {
        // A different expiry for each: every signature differs, so a leak names the setting it came from.
        var parameters = new AccountSasBuilder(AccountSasPermissions.All, DateTimeOffset.UtcNow.AddHours(1).AddSeconds(_planted.Count), services, AccountSasResourceTypes.All)
        {
            Protocol = SasProtocol.HttpsAndHttp,
        }.ToSasQueryParameters(new StorageSharedKeyCredential(AccountName, AzuriteProcess.DevelopmentAccountKey));
        Plant(name, parameters.Signature);
        return parameters.ToString();
    }

    private string Plant(string name, string value)
    {
        _planted.Add((name, value));
        return value;
    }

    /// <summary>A key as the services write one (base64 of 48 bytes) that reads, decoded, as <paramref name="marker"/>.</summary>
    private static string Base64Key(string marker) => Convert.ToBase64String(Encoding.ASCII.GetBytes(marker.PadRight(48, '#')[..48]));

    private static Dictionary<string, string?> With(Dictionary<string, string?> settings, params (string Key, string? Value)[] changes)
    {
        var changed = new Dictionary<string, string?>(settings);
        foreach (var (key, value) in changes)
        {
            changed[key] = value;
        }

        return changed;
    }
}
