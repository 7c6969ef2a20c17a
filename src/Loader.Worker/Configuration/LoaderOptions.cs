using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;
using Loader.Worker.Backends.Cosmos;
using Loader.Worker.Backends.Tables;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.JsonLines;
using Loader.Worker.Parquet;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Configuration;

/// <summary>Settings of one load, bound from the <c>Loader</c> configuration section.</summary>
internal sealed class LoaderOptions
{
    public const string SectionName = "Loader";

    /// <summary><see cref="SettingLimits.LongestTimer"/> less the 10 s the host is given beyond the grace period to stop.</summary>
    public const string LongestShutdownGracePeriod = "49.17:02:37.294";

    /// <summary>One load (the default), <c>plan</c>, <c>work</c> or <c>status</c> of a sharded load, or <c>verify</c>: the verb given first on the command line.</summary>
    public LoaderCommand Command { get; set; } = LoaderCommand.Load;

    /// <summary>
    /// Required. The CSV to load: a file path, a blob URL, a blob prefix URL ending in <c>/</c> or <c>*</c> (every blob under it,
    /// in name order, read as one CSV), or <c>-</c> for standard input (read once: not with a checkpoint).
    /// </summary>
    [Accepts("a file path, a blob URL, a blob prefix URL ending in / or *, or - for standard input; required")]
    public string Input { get; set; } = "";

    /// <summary>
    /// How the input's records are written: by each file's extension (<c>Auto</c>: <c>.jsonl</c>/<c>.ndjson</c> JSON Lines,
    /// <c>.parquet</c> Parquet, anything else CSV; a compression suffix such as <c>.gz</c> is looked past), or one format for every file.
    /// </summary>
    public InputFormat Format { get; set; } = InputFormat.Auto;

    /// <summary>The store to write to.</summary>
    public BackendKind Backend { get; set; } = BackendKind.Tables;

    /// <summary>Required. Template of the partition key, e.g. <c>{dest}</c>: column names in braces, <c>{{</c> and <c>}}</c> for literal braces.</summary>
    [Accepts("column names in braces with text between, {{ and }} for literal braces; required")]
    public string PartitionKey { get; set; } = "";

    /// <summary>Required. Template of the row key (Cosmos DB: the id), e.g. <c>{year}-{month}-{day}-{carrier}-{flight}</c>.</summary>
    [Accepts("column names in braces with text between, {{ and }} for literal braces; required")]
    public string RowKey { get; set; } = "";

    /// <summary>How each row is applied to the store.</summary>
    public WriteMode WriteMode { get; set; } = WriteMode.Upsert;

    /// <summary>Rows per transactional batch, at most 100.</summary>
    // A Table Storage entity group transaction and a Cosmos DB transactional batch each hold at most 100 operations.
    [Range(1, 100)]
    public int BatchSize { get; set; } = 100;

    /// <summary>Batches in flight at once, across partitions.</summary>
    // The loader's own ceiling: each batch in flight holds a connection (the pools are sized twice this) and its rows.
    [Range(1, 1024)]
    public int MaxParallelBatches { get; set; } = 16;

    /// <summary>How many batches go in flight.</summary>
    public ConcurrencyMode Concurrency { get; set; } = ConcurrencyMode.Adaptive;

    /// <summary>Request units per second at most (Cosmos DB, Cosmos DB for Table): a load can take, say, 70% of a container's throughput.</summary>
    // A rate: any finite number above zero (the pacer takes a wait of any length in slices); unset: no cap.
    [Range(0d, double.MaxValue, MinimumIsExclusive = true)]
    public double? MaxRequestUnitsPerSecond { get; set; }

    /// <summary>Rows per second at most, any backend.</summary>
    // A rate: any finite number above zero (the pacer takes a wait of any length in slices); unset: no cap.
    [Range(0d, double.MaxValue, MinimumIsExclusive = true)]
    public double? MaxRowsPerSecond { get; set; }

    /// <summary>
    /// Memory, in bytes, that rows waiting in partial batches may hold before the oldest partial batch is sent as it is.
    /// More lets many partition keys fill their batches (fewer requests); less keeps the process smaller. Unset: 32 MiB,
    /// or a sixteenth of the memory the process may use where that is less, which keeps a load under about 256 MiB.
    /// </summary>
    // Estimated from the rows' layout (Batching/EntityFootprint); at least a few full batches of wide rows, at most 16 GiB.
    [Range(typeof(long), "1048576", "17179869184")]
    public long? MaxBufferedBytes { get; set; }

    /// <summary>Rows that may wait in partial batches before the oldest partial batch is sent as it is, besides <see cref="MaxBufferedBytes"/>. Unset: no count, memory alone bounds them.</summary>
    // The loader's own ceiling on rows held in memory; at least one batch (Loader:BatchSize), which the validator checks.
    [Range(1, 10_000_000)]
    [Accepts("at least Loader:BatchSize")]
    public int? MaxBufferedRows { get; set; }

    /// <summary>
    /// The longest a partial batch waits for more rows of its partition key before it is sent as it is. Rows of a rare
    /// key would otherwise wait for the end of the input, holding the checkpoint back: a crash then re-sends nearly
    /// everything. Longer fills batches of slow keys better; shorter keeps the checkpoint closer behind the reader. Only
    /// while the service keeps up: while batches queue for it, a partial batch keeps filling (up to
    /// <see cref="MaxBufferedBytes"/>), since sending it early would cost a request and gain nothing.
    /// </summary>
    // No timer is set with it (the batch stage looks at least every 10 ms to 1 s and compares ages), so only the type limits it.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestDuration)]
    public TimeSpan MaxBatchDelay { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Type per column name; columns not listed are strings. Json (Cosmos DB only) embeds the cell as the JSON value it holds.</summary>
    public Dictionary<string, ColumnType> Columns { get; set; } = new(StringComparer.Ordinal);

    /// <summary>
    /// Columns not written, by name, separated by commas (ssn,notes): a column the store should not hold, one whose name it
    /// refuses, one too many for its property limit, or a Parquet column of a type no store holds (then not even read).
    /// Key templates may still name them. None when empty.
    /// </summary>
    [Accepts("column names separated by commas; optional")]
    public string? SkipColumns { get; set; }

    /// <summary>The names <see cref="SkipColumns"/> lists.</summary>
    public IReadOnlySet<string> SkippedColumns() =>
        (SkipColumns ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);

    /// <summary>Where the load records how far it got, every <see cref="CheckpointInterval"/> and at the end; started again with the same input and settings it resumes there. None when empty.</summary>
    [Accepts("a file path or a blob URL (not a prefix); optional")]
    public string? CheckpointPath { get; set; }

    /// <summary>How often the checkpoint is written while loading (and always at the end): a crash re-sends what settled since the last one, about this much writing.</summary>
    // The period of a PeriodicTimer.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestTimer)]
    public TimeSpan CheckpointInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Where the JSON report is written; none when empty.</summary>
    [Accepts("a file path or a blob URL (not a prefix); optional")]
    public string? ReportPath { get; set; }

    /// <summary>
    /// Where the HTML report is written (charts over time, latency histogram, rejects by reason, settings): a path or a
    /// blob URL. When empty, beside the JSON report, named as it with <c>.html</c>; none without either.
    /// </summary>
    [Accepts("a file path or a blob URL; optional")]
    public string? HtmlReportPath { get; set; }

    /// <summary>Where rejected rows are written as CSV, in the input's columns and delimiter, then why and where each was read, to fix and load again; none when empty.</summary>
    [Accepts("a file path or a blob URL (not a prefix); optional")]
    public string? RejectsPath { get; set; }

    /// <summary>Read, map, validate and batch the whole input without writing anything.</summary>
    public bool DryRun { get; set; }

    /// <summary>
    /// Check instead of load (<c>--check</c>): the input (readable, header fits the settings), the target (reachable,
    /// credentials, table or container, write permission proven with a probe entity) and every output (writable), then exit.
    /// </summary>
    public bool Check { get; set; }

    /// <summary>Rows that may be rejected before the load stops; 0 allows none.</summary>
    // A count of rows: any, from none.
    [Range(typeof(long), "0", "9223372036854775807")]
    public long MaxRejects { get; set; } = 1000;

    /// <summary>How long connecting to the backend and preparing the target may take.</summary>
    // Handed to CancellationTokenSource.CancelAfter.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestTimer)]
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>After a stop request, how long batches in flight may take to finish before they are cancelled.</summary>
    /// <remarks>Container Apps kills a job replica 30 s after SIGTERM: the default leaves time to write the checkpoint and report.</remarks>
    // Handed to CancellationTokenSource.CancelAfter, and with 10 s more to the host as its HostOptions.ShutdownTimeout, which it cancels after.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, LongestShutdownGracePeriod)]
    public TimeSpan ShutdownGracePeriod { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>How often a progress line is logged.</summary>
    // The period of a PeriodicTimer.
    [Range(typeof(TimeSpan), SettingLimits.OneMillisecond, SettingLimits.LongestTimer)]
    public TimeSpan ProgressInterval { get; set; } = TimeSpan.FromSeconds(5);

    public CsvOptions Csv { get; set; } = new();

    /// <summary>How JSON Lines input becomes entities.</summary>
    public JsonOptions Json { get; set; } = new();
    /// <summary>How a Parquet input's values are written.</summary>
    public ParquetOptions Parquet { get; set; } = new();

    public RetryOptions Retry { get; set; } = new();

    public TablesOptions Tables { get; set; } = new();

    public CosmosOptions Cosmos { get; set; } = new();

    public BlobOptions Blob { get; set; } = new();

    /// <summary>A sharded load: its state folder and queue, and how the input is cut (the verbs <c>plan</c>, <c>work</c>, <c>status</c>).</summary>
    public ShardOptions Shards { get; set; } = new();

    /// <summary>Console log format: <c>Auto</c> (JSON when the output is not a terminal), <c>Text</c> or <c>Json</c>.</summary>
    public LogFormat LogFormat { get; set; } = LogFormat.Auto;

    /// <summary>A live progress bar (percent and ETA, rows/s, batches in flight, throttles, rejects) while standard output is a terminal and the log is text; <c>false</c> for progress lines only. Logs to a pipe or a container's collector never get one.</summary>
    public bool ProgressBar { get; set; } = true;

    /// <summary>What <c>--estimate</c> samples and the prices it predicts the cost with.</summary>
    public EstimateOptions Estimate { get; set; } = new();

    /// <summary>What <c>verify</c> reports and how much of the input it holds in memory.</summary>
    public VerifyOptions Verify { get; set; } = new();

    public TelemetryOptions Telemetry { get; set; } = new();
}
