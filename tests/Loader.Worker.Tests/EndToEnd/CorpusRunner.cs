using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using CsvHelper;
using Loader.Worker.Csv;
using Loader.Worker.Outcomes;
using Loader.Worker.Reporting;
using Loader.Worker.Tests.Infrastructure;
using Xunit.Sdk;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// Loads a <see cref="CorpusCase"/> into a fresh table or container (see <see cref="ICorpusStore"/>) through the real
/// host and checks everything it promises: exit code, outcome and message, the report's counts, the rejects file row
/// by row (reason, and the record exactly as it stood in the input), and every stored entity with its values and types.
/// </summary>
internal static partial class CorpusRunner
{
    /// <summary>Loads the case into a table on Azurite (a fresh one unless <paramref name="table"/> names one).</summary>
    public static Task<LoaderRun> LoadAndVerifyAsync(
        AzuriteFixture azurite,
        TestDirectory directory,
        CorpusCase corpus,
        CancellationToken cancellationToken,
        string? table = null) =>
        LoadAndVerifyAsync(new TablesCorpusStore(azurite, table ?? AzuriteFixture.UniqueTableName("corpus")), directory, corpus, cancellationToken);

    public static async Task<LoaderRun> LoadAndVerifyAsync(
        ICorpusStore store,
        TestDirectory directory,
        CorpusCase corpus,
        CancellationToken cancellationToken)
    {
        var input = InputLines.Read(corpus.InputPath);
        CheckExpectationsAccountForEveryLine(corpus, input);

        var rejectsPath = directory.File("rejects.csv");
        var reportPath = directory.File("report.json");
        var settings = new Dictionary<string, string?>(store.Settings(), StringComparer.Ordinal)
        {
            ["Loader:Input"] = corpus.InputPath,
            ["Loader:ReportPath"] = reportPath,
            ["Loader:RejectsPath"] = rejectsPath,
            ["Loader:ProgressInterval"] = "00:00:01",
        };
        foreach (var (key, value) in corpus.Settings)
        {
            settings[key] = value;
        }

        var run = await LoaderRunner.RunAsync(settings, cancellationToken);
        var report = run.RequireReport();
        string Context() => $"{corpus.Name}: exit {run.ExitCode}, outcome {report.Outcome}, message: {report.Message}{Environment.NewLine}"
            + $"read {report.RowsRead}, written {report.RowsWritten}, rejected {report.RowsRejected}, superseded {report.RowsSuperseded}, failed {report.RowsFailed}{Environment.NewLine}"
            + (File.Exists(rejectsPath) ? $"rejects:{Environment.NewLine}{File.ReadAllText(rejectsPath)}" : "no rejects file") + Environment.NewLine
            + $"logs:{Environment.NewLine}{run.Logs.AllText}";

        Check(run.ExitCode == corpus.ExitCode, () => $"exit code {run.ExitCode}, expected {corpus.ExitCode}", Context);
        Check(report.ExitCode == corpus.ExitCode, () => $"report.exitCode {report.ExitCode}, expected {corpus.ExitCode}", Context);
        if (corpus.Outcome is { } outcome)
        {
            Check(report.Outcome.ToString() == outcome, () => $"outcome '{report.Outcome}', expected '{outcome}'", Context);
        }

        var message = report.Message?.ReplaceLineEndings("\n");
        if (corpus.Message is { } exact)
        {
            Check(message == exact, () => $"message{Environment.NewLine}'{message}'{Environment.NewLine}expected{Environment.NewLine}'{exact}'", Context);
        }

        if (corpus.MessageStartsWith is { } start)
        {
            Check(message?.StartsWith(start, StringComparison.Ordinal) == true, () => $"message '{message}' does not start with '{start}'", Context);
        }

        if (corpus.ExitCode == ExitCodes.InvalidConfiguration)
        {
            VerifyNothingHappened(report, rejectsPath);
            Assert.False(await store.ExistsAsync(cancellationToken), "a load stopped at start creates no table or container");
            return run;
        }

        VerifyCounts(corpus, report, reportPath, Context);
        VerifyRejects(corpus, input, rejectsPath, Context);
        await VerifyStoreAsync(store, corpus, cancellationToken);
        return run;
    }

    /// <summary>A load stopped at start: no row read and no rejects file.</summary>
    private static void VerifyNothingHappened(LoadReport report, string rejectsPath)
    {
        Assert.Equal((0L, 0L, 0L, 0L, 0L), (report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed));
        Assert.False(File.Exists(rejectsPath), "a load stopped at start opens no rejects file");
    }

    private static void VerifyCounts(CorpusCase corpus, LoadReport report, string reportPath, Func<string> context)
    {
        var expected = corpus.Report ?? throw new InvalidOperationException($"{corpus.Name}: the expectations give no report counts");
        var actual = new ExpectedCounts(report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed, report.RowsAlreadyAbsent);
        Check(actual == expected, () => $"counts {actual}, expected {expected}", context);
        Check(report.RowsRead == report.RowsWritten + report.RowsRejected + report.RowsSuperseded + report.RowsFailed + report.RowsAlreadyAbsent, () => "rowsRead is not the sum of the outcomes", context);
        Check(report.Reconciled, () => "the report says it does not reconcile", context);
        if (corpus.Lines is { } lines)
        {
            var counted = new ExpectedLines(report.LinesRead ?? -1, report.LinesRejected);
            Check(counted == lines, () => $"lines {counted}, expected {lines}", context);
        }

        Check(expected.RowsRejected == corpus.Rejects.Count, () => $"the expectations list {corpus.Rejects.Count} rejects but count {expected.RowsRejected}", context);
        Check(expected.RowsSuperseded == corpus.Superseded.Count, () => $"the expectations list {corpus.Superseded.Count} superseded rows but count {expected.RowsSuperseded}", context);
        Check(expected.RowsAlreadyAbsent == corpus.AlreadyAbsent.Count, () => $"the expectations list {corpus.AlreadyAbsent.Count} deletes that found nothing but count {expected.RowsAlreadyAbsent}", context);

        var written = ReportWriter.Read(reportPath);
        Check(
            (written.RowsRead, written.RowsWritten, written.RowsRejected, written.RowsSuperseded, written.RowsFailed, written.ExitCode)
                == (report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed, report.ExitCode),
            () => "the report file differs from the report in memory",
            context);
    }

    /// <summary>
    /// The rejects file row by row: its line and reason, and the record as it stood in the input: its fields in the input's
    /// columns when it was read whole, or its text (fields empty) when the reader could not split it.
    /// </summary>
    private static void VerifyRejects(CorpusCase corpus, InputLines input, string rejectsPath, Func<string> context)
    {
        var separator = corpus.Settings.TryGetValue("Loader:Csv:Delimiter", out var delimiter) ? CsvRecordReader.Separator(delimiter) : ',';
        var file = RejectsFile.Read(rejectsPath, separator);
        var header = Split(input.Text, separator, header: true);
        Check(header is not null && file.DataColumns.SequenceEqual(header.Select(name => name.Trim())), () => $"the rejects file's columns [{string.Join(", ", file.DataColumns)}] are not the input's", context);
        var actual = file.Rows.OrderBy(r => r.Line).ToList();
        var lines = string.Join(", ", actual.Select(r => r.Line));
        Check(actual.Count == corpus.Rejects.Count, () => $"{actual.Count} rejects (lines {lines}), expected {corpus.Rejects.Count}", context);
        foreach (var (reject, expected) in actual.Zip(corpus.Rejects.OrderBy(r => r.Line)))
        {
            Check(reject.Line == expected.Line, () => $"a reject on line {reject.Line} ({reject.Reason}), expected line {expected.Line}", context);
            Check((reject.InputLine, reject.File, reject.FileLine) == (reject.Line, corpus.InputPath, reject.Line), () => $"line {reject.Line}: read on line {reject.InputLine}, file '{reject.File}' line {reject.FileLine}, expected line {reject.Line} of '{corpus.InputPath}'", context);
            if (expected.Reason is { } reason)
            {
                Check(reject.Reason == reason, () => $"line {reject.Line}: reason '{reject.Reason}', expected '{reason}'", context);
            }

            if (expected.ReasonStartsWith is { } reasonStart)
            {
                Check(reject.Reason.StartsWith(reasonStart, StringComparison.Ordinal), () => $"line {reject.Line}: reason '{reject.Reason}' does not start with '{reasonStart}'", context);
            }

            var record = expected.Record ?? input.Lines(expected.Line, expected.LastLine);
            if (ReadWhole(reject.Reason))
            {
                var asInInput = input.CheckRecord(reject.Line, expected.LastLine, record);
                Check(asInInput is null, () => $"line {reject.Line}: the expected record is not the input as it stood: {asInInput}", context);
                var fields = Split(record, separator, header: false);
                Check(
                    reject.Record.Length == 0 && fields is not null && reject.Fields.SequenceEqual(fields),
                    () => $"line {reject.Line}: fields [{string.Join(" | ", reject.Fields.Select(Shorten))}], text '{Shorten(reject.Record)}'{Environment.NewLine}expected the fields of{Environment.NewLine}'{Shorten(record)}'",
                    context);
            }
            else
            {
                Check(reject.Fields.All(field => field.Length == 0), () => $"line {reject.Line}: a record the reader could not split has fields [{string.Join(" | ", reject.Fields.Select(Shorten))}]", context);
                Check(reject.Record == record, () => $"line {reject.Line}: record{Environment.NewLine}'{Shorten(reject.Record)}'{Environment.NewLine}expected{Environment.NewLine}'{Shorten(record)}'", context);
                var asInInput = input.CheckRecord(reject.Line, expected.LastLine, reject.Record);
                Check(asInInput is null, () => $"line {reject.Line}: the record is not the input as it stood: {asInInput}", context);
            }
        }
    }

    /// <summary>
    /// Whether a reject's record was read whole, so the rejects file splits it into fields: all but those the reader could
    /// not split (broken quoting, a wrong number of fields, cut out as too long) and those holding bytes that are not text.
    /// </summary>
    private static bool ReadWhole(string reason) =>
        !reason.StartsWith("malformed ", StringComparison.Ordinal)
        && !reason.Contains("(Loader:Csv:MaxRecordBytes)", StringComparison.Ordinal)
        && !UnreadFields().IsMatch(reason)
        && !reason.Contains("holds bytes that are not valid", StringComparison.Ordinal);

    [GeneratedRegex(@"^has \d+ fields?, the header has \d+$")]
    private static partial Regex UnreadFields();

    /// <summary>The fields of the first record of <paramref name="text"/> as CsvHelper reads them (the header's, when <paramref name="header"/>); null when it is not one whole record.</summary>
    private static IReadOnlyList<string>? Split(string text, char separator, bool header)
    {
        var options = new CsvReaderOptions { Separator = separator, HasHeader = header, DetectSeparatorHint = false, MalformedData = CsvMalformedDataHandling.Throw };
        try
        {
            using var reader = CsvReader.FromText(text, options);
            if (header)
            {
                return reader.Headers;
            }

            return reader.Read() ? [.. Enumerable.Range(0, reader.FieldCount).Select(reader.GetString)] : null;
        }
        catch (CsvFormatException)
        {
            return null;
        }
    }

    private static async Task VerifyStoreAsync(ICorpusStore store, CorpusCase corpus, CancellationToken cancellationToken)
    {
        var stored = await store.ReadAsync(cancellationToken);
        var expected = corpus.Rows.Concat(corpus.HeldBefore).ToDictionary(row => (row.PartitionKey, row.RowKey));
        var missing = expected.Keys.Where(key => !stored.ContainsKey(key)).ToList();
        var extra = stored.Keys.Where(key => !expected.ContainsKey(key)).ToList();
        if (missing.Count > 0 || extra.Count > 0)
        {
            throw new XunitException($"{corpus.Name}: the store holds {stored.Count} entities, expected {expected.Count}; "
                + $"missing: [{string.Join(", ", missing.Select(Describe))}], unexpected: [{string.Join(", ", extra.Select(Describe))}]");
        }

        foreach (var (key, row) in expected)
        {
            var properties = stored[key];
            var expectedProperties = store.AsStored(row.Properties);
            var names = string.Join(", ", properties.Keys.Order(StringComparer.Ordinal));
            var expectedNames = string.Join(", ", expectedProperties.Keys.Order(StringComparer.Ordinal));
            if (names != expectedNames)
            {
                throw new XunitException($"{corpus.Name}: entity {Describe(key)} (line {row.Line}) has properties [{names}], expected [{expectedNames}]");
            }

            foreach (var (name, value) in expectedProperties)
            {
                var actual = properties[name];
                if (actual.GetType() != value.GetType() || !actual.Equals(value))
                {
                    throw new XunitException($"{corpus.Name}: entity {Describe(key)} (line {row.Line}) property '{name}' is "
                        + $"{actual.GetType().Name} '{Shorten(Format(actual))}', expected {value.GetType().Name} '{Shorten(Format(value))}'");
                }
            }
        }
    }

    /// <summary>
    /// The expectations must say what becomes of every line of the input: each non-empty line is part of exactly
    /// one written row, superseded row or reject (empty lines are skipped by the reader, or sit inside a quoted field).
    /// </summary>
    private static void CheckExpectationsAccountForEveryLine(CorpusCase corpus, InputLines input)
    {
        if (corpus.ExitCode == ExitCodes.InvalidConfiguration)
        {
            return;
        }

        var lastRead = corpus.ReadUpToLine ?? input.Count;
        var owner = new Dictionary<long, string>();
        void Account(long from, long to, string what)
        {
            if (from < 2 || to < from || to > lastRead)
            {
                throw new XunitException($"{corpus.Name}.expected.json: {what} names lines {from}-{to}, outside the data lines 2-{lastRead}");
            }

            for (var line = from; line <= to; line++)
            {
                if (!owner.TryAdd(line, what))
                {
                    throw new XunitException($"{corpus.Name}.expected.json: line {line} is claimed by both {owner[line]} and {what}");
                }
            }
        }

        foreach (var reject in corpus.Rejects)
        {
            Account(reject.Line, reject.LastLine, $"the reject of line {reject.Line}");
        }

        foreach (var line in corpus.Superseded)
        {
            Account(line, line, $"the superseded row of line {line}");
        }

        foreach (var line in corpus.AlreadyAbsent)
        {
            Account(line, line, $"the delete of line {line}, which found nothing");
        }

        foreach (var row in corpus.Rows)
        {
            Account(row.Line, row.LastLine, $"row ({row.PartitionKey}, {Shorten(row.RowKey)})");
        }

        for (var line = 2L; line <= lastRead; line++)
        {
            if (!owner.ContainsKey(line) && !input.IsEmpty(line))
            {
                throw new XunitException($"{corpus.Name}.expected.json: line {line} ('{Shorten(input.Lines(line, line))}') is neither written, superseded nor rejected");
            }
        }
    }

    private static void Check(bool condition, Func<string> problem, Func<string> context)
    {
        if (!condition)
        {
            throw new XunitException(problem() + Environment.NewLine + context());
        }
    }

    private static string Describe((string PartitionKey, string RowKey) key) => $"({Shorten(key.PartitionKey)}, {Shorten(key.RowKey)})";

    private static string Format(object value) => value switch
    {
        DateTime date => date.ToString("o", CultureInfo.InvariantCulture),
        double number => number.ToString("R", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    /// <summary>Text for a failure message: control characters made visible (a CR would hide), long text cut in the middle.</summary>
    private static string Shorten(string text)
    {
        var cut = text.Length <= 200 ? text : $"{text[..100]}…({text.Length:N0} characters)…{text[^40..]}";
        var visible = new StringBuilder(cut.Length);
        foreach (var c in cut)
        {
            _ = c switch
            {
                '\r' => visible.Append("\\r"),
                '\n' => visible.Append("\\n"),
                '\t' => visible.Append("\\t"),
                _ when char.IsControl(c) => visible.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:X4}"),
                _ => visible.Append(c),
            };
        }

        return visible.ToString();
    }

    /// <summary>The input as text, with where each physical line starts: CRLF, LF and a lone CR each end a line.</summary>
    internal sealed class InputLines
    {
        private readonly List<int> _starts = [];

        private InputLines(string text)
        {
            Text = text;
            if (text.Length > 0)
            {
                _starts.Add(0);
            }

            for (var i = 0; i < text.Length; i++)
            {
                if (text[i] == '\r' && i + 1 < text.Length && text[i + 1] == '\n')
                {
                    i++;
                }

                if ((text[i] is '\n' or '\r') && i + 1 < text.Length)
                {
                    _starts.Add(i + 1);
                }
            }
        }

        public string Text { get; }

        /// <summary>Lines in the input (a final line break does not start another).</summary>
        public long Count => _starts.Count;

        /// <summary>Reads a file as the loader does: UTF-8 unless a UTF-16 byte-order mark says otherwise, the mark is not content, bad bytes become U+FFFD.</summary>
        public static InputLines Read(string path)
        {
            var bytes = File.ReadAllBytes(path);
            foreach (var encoding in (Encoding[])[new UnicodeEncoding(false, true), new UnicodeEncoding(true, true), new UTF8Encoding(true)])
            {
                var preamble = encoding.Preamble;
                if (bytes.AsSpan().StartsWith(preamble))
                {
                    return new InputLines(encoding.GetString(bytes, preamble.Length, bytes.Length - preamble.Length));
                }
            }

            return new InputLines(Encoding.UTF8.GetString(bytes));
        }

        public bool IsEmpty(long line) => End(line) == Start(line);

        /// <summary>Lines <paramref name="first"/> to <paramref name="last"/> as they stand, without the last one's line break.</summary>
        public string Lines(long first, long last) => Text[Start(first)..End(last)];

        /// <summary>Null when <paramref name="record"/> is the input from the start of <paramref name="line"/> to the end of <paramref name="lastLine"/> (its line break included or not); else what differs.</summary>
        public string? CheckRecord(long line, long lastLine, string record)
        {
            if (line < 1 || line > Count)
            {
                return $"the input has no line {line}";
            }

            var start = Start(line);
            if (record.EndsWith('\u2026') && string.CompareOrdinal(Text, start, record, 0, record.Length - 1) == 0)
            {
                return null; // a record too long to keep, kept in part: its start is the input's
            }

            if (record.Length > Text.Length - start || string.CompareOrdinal(Text, start, record, 0, record.Length) != 0)
            {
                return $"the input at line {line} does not start with the record";
            }

            var end = start + record.Length;
            var body = record.EndsWith("\r\n", StringComparison.Ordinal) ? record[..^2] : record.EndsWith('\n') || record.EndsWith('\r') ? record[..^1] : record;
            if (body.Length == record.Length && end < Text.Length && Text[end] is not ('\r' or '\n'))
            {
                return "the record stops in the middle of a line";
            }

            var breaks = 0;
            for (var i = 0; i < body.Length; i++)
            {
                if (body[i] == '\n' || (body[i] == '\r' && (i + 1 == body.Length || body[i + 1] != '\n')))
                {
                    breaks++;
                }
            }

            return line + breaks == lastLine ? null : $"the record spans lines {line}-{line + breaks}, expected {line}-{lastLine}";
        }

        private int Start(long line) => _starts[(int)(line - 1)];

        /// <summary>Where the line's text ends (before its line break).</summary>
        private int End(long line)
        {
            var end = line < Count ? _starts[(int)line] : Text.Length;
            if (end > Start(line) && Text[end - 1] == '\n')
            {
                end--;
            }

            if (end > Start(line) && Text[end - 1] == '\r')
            {
                end--;
            }

            return end;
        }
    }
}
