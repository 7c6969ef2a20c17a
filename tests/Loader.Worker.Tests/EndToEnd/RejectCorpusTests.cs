using System.Globalization;
using System.Text;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The reject corpus (<c>Corpus/</c>): one small input per fault, each with its expectations beside it, loaded
/// into a fresh table on Azurite. Every input row must end up written, superseded or in the rejects file with
/// a clear reason and its line; header faults must stop the load before anything is created.
/// </summary>
public sealed class RejectCorpusTests(AzuriteFixture azurite) : IDisposable
{
    private const string Upsert = "Upsert";
    private const string Insert = "Insert";

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    public static TheoryData<string> RowFaults() => new(CorpusCase.Names().Where(name => !name.StartsWith(CorpusCase.HeaderFaultPrefix, StringComparison.Ordinal)));

    public static TheoryData<string> SettingFaults() => new(CorpusCase.Names("settings"));

    public static TheoryData<string> HeaderFaults() => new(CorpusCase.Names().Where(name => name.StartsWith(CorpusCase.HeaderFaultPrefix, StringComparison.Ordinal)));

    [Theory]
    [MemberData(nameof(RowFaults))]
    public async Task Every_row_of_a_corpus_file_is_written_superseded_or_rejected_with_its_line_and_reason(string name)
    {
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, CorpusCase.Load(name), _cancellation);
    }

    [Theory]
    [MemberData(nameof(HeaderFaults))]
    public async Task A_header_fault_stops_the_load_at_start_naming_the_column_and_creates_nothing(string name)
    {
        var corpus = CorpusCase.Load(name);
        Assert.Equal(ExitCodes.InvalidConfiguration, corpus.ExitCode);

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    /// <summary>Run as a user runs the loader: its own process, whose exit code and printed message are what a job sees.</summary>
    [Theory]
    [MemberData(nameof(SettingFaults))]
    public async Task A_setting_that_cannot_be_right_stops_the_load_at_start_naming_it(string name)
    {
        var corpus = CorpusCase.Load(name);
        var table = AzuriteFixture.UniqueTableName("settings");
        var settings = new Dictionary<string, string?>(StringComparer.Ordinal)
        {
            ["Loader:Input"] = corpus.InputPath,
            ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
            ["Loader:Tables:Table"] = table,
        };
        foreach (var (key, value) in corpus.Settings)
        {
            settings[key] = value;
        }

        await using var loader = LoaderProcess.Start(settings);
        var exitCode = await loader.WaitForExitAsync(TimeSpan.FromMinutes(1), _cancellation);

        Assert.True(exitCode == corpus.ExitCode, $"exit code {exitCode}, expected {corpus.ExitCode}:{Environment.NewLine}{loader.Output}");
        // Program.cs lists every failure on standard error, one a line under one heading: these, and no others.
        var listed = loader.Error.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(Loader.Worker.Hosting.StartupFailure.HelpHint, listed.LastOrDefault());
        listed = listed[..^1];
        Assert.NotEmpty(corpus.Stderr);
        Assert.Equal("Invalid settings; nothing was loaded:", listed.FirstOrDefault());
        Assert.True(listed.Length == 1 + corpus.Stderr.Count, $"{listed.Length - 1} failures listed, expected {corpus.Stderr.Count}:{Environment.NewLine}{loader.Error}");
        Assert.All(corpus.Stderr.Zip(listed.Skip(1)), pair => Assert.StartsWith("  - " + pair.First, pair.Second, StringComparison.Ordinal));
        var missing = await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal(404, missing.Status);
    }

    [Fact]
    public void Every_corpus_input_has_its_expectations_and_every_expectation_its_input()
    {
        var files = Directory.GetFiles(CorpusCase.Directory, "*", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(CorpusCase.Directory, path).Replace('\\', '/'))
            .Where(path => !Path.GetFileName(path).StartsWith('.'))
            .ToHashSet(StringComparer.Ordinal);

        var inputs = files.Where(f => f.EndsWith(".csv", StringComparison.Ordinal)).Select(f => f[..^".csv".Length]).ToList();
        var expectations = files.Where(f => f.EndsWith(".expected.json", StringComparison.Ordinal)).Select(f => f[..^".expected.json".Length]).ToList();

        Assert.NotEmpty(inputs);
        Assert.Equal(inputs.Order(StringComparer.Ordinal), expectations.Order(StringComparer.Ordinal));
        Assert.Equal(files.Count, inputs.Count + expectations.Count);
        Assert.All(inputs, name => CorpusCase.Load(name));
    }

    // ---- Generated inputs: too large to keep in the corpus, expectations here. ----

    [Fact]
    public async Task An_entity_over_one_MiB_is_rejected_with_its_size_and_one_just_under_lands()
    {
        // 16 string columns of 32,768 characters: the largest strings allowed, together over 1 MiB as the service
        // counts (UTF-16): 4 + keys 2 x (1 + 3) + pk 18 + rk 22 + s1-s9 9 x (8 + 4 + 65,536 + 4) + s10-s16 7 x (8 + 6 + 65,536 + 4) = 1,048,898.
        var columns = Enumerable.Range(1, 16).Select(i => $"s{i}").ToArray();
        var text = new StringBuilder("pk,rk,").AppendJoin(',', columns).Append('\n');
        text.Append("p,big,").AppendJoin(',', columns.Select(_ => new string('x', 32_768))).Append('\n');
        text.Append("p,fits,").AppendJoin(',', columns.Select(_ => new string('y', 32_000))).Append('\n');
        var fits = new Dictionary<string, object>(StringComparer.Ordinal) { ["pk"] = "p", ["rk"] = "fits" };
        foreach (var column in columns)
        {
            fits[column] = new string('y', 32_000);
        }

        var corpus = Generated("entity-over-one-mib", text.ToString(), Upsert) with
        {
            Report = new ExpectedCounts(2, 1, 1, 0, 0),
            Rejects = [new ExpectedReject(2, 2, "entity is 1,048,898 bytes, larger than the 1 MiB the service stores", null, null)],
            Rows = [new ExpectedRow(3, 3, "p", "fits", fits)],
        };

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    [Fact]
    public async Task A_large_mixed_input_keeps_every_line_number_right_across_parallel_mapping()
    {
        // 40,000 records over 50 partitions, read in parallel chunks on four mapping threads: multi-line fields,
        // blank lines, CRLF lines and faults of every stage spread through it, so line counting must carry across chunks.
        var random = new Random(5);
        var text = new StringBuilder("pk,rk,n,note\n");
        var line = 2L;
        var rejects = new List<ExpectedReject>();
        var rows = new List<ExpectedRow>();
        for (var i = 0; i < 40_000; i++)
        {
            var (pk, rk) = ($"p{i % 50}", $"r{i}");
            var roll = random.NextDouble();
            var first = line;
            string? note = null;
            string? reason = null;
            switch (roll)
            {
                case < 0.01:
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},abc,x\n");
                    reason = "column 'n': 'abc' is not a valid Int32 in the invariant culture";
                    break;
                case < 0.02:
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},1\n");
                    reason = "has 3 fields, the header has 4";
                    break;
                case < 0.03:
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},1,x\"y\n");
                    reason = "malformed quoting: a quote inside an unquoted field";
                    break;
                case < 0.04:
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},zz,\"bad\nmulti\"\n");
                    reason = "column 'n': 'zz' is not a valid Int32 in the invariant culture";
                    line += 1;
                    break;
                case < 0.06:
                    text.Append('\n'); // a blank line: no record
                    line++;
                    continue;
                case < 0.07:
                    note = $"crlf {i}";
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},{i},{note}\r\n");
                    break;
                case < 0.25:
                    note = $"multi\nline\nnote {i}";
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},{i},\"{note}\"\n");
                    line += 2;
                    break;
                default:
                    note = $"plain {i}";
                    text.Append(CultureInfo.InvariantCulture, $"{pk},{rk},{i},{note}\n");
                    break;
            }

            if (reason is not null)
            {
                rejects.Add(new ExpectedReject(first, line, reason, null, null));
            }
            else
            {
                rows.Add(new ExpectedRow(first, line, pk, rk, new Dictionary<string, object>(StringComparer.Ordinal) { ["pk"] = pk, ["rk"] = rk, ["n"] = i, ["note"] = note! }));
            }

            line++;
        }

        var corpus = Generated("large-mixed", text.ToString(), Upsert, ("Loader:Columns:n", "Int32"), ("Loader:Csv:MapThreads", "4"), ("Loader:MaxRejects", "100000")) with
        {
            Report = new ExpectedCounts(rows.Count + rejects.Count, rows.Count, rejects.Count, 0, 0),
            Rejects = rejects,
            Rows = rows,
        };
        Assert.InRange(rejects.Count, 1_000, 2_000);

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    [Fact]
    public async Task A_stray_quote_in_a_file_of_thousands_of_rows_costs_its_own_line_and_every_row_after_it_lands()
    {
        // Line 11 opens a quote in free text and nothing closes it: it used to swallow the other 4,990 rows as one reject.
        var text = new StringBuilder("id,p,note\n");
        var rows = new List<ExpectedRow>();
        for (var i = 1; i <= 5_000; i++)
        {
            if (i == 10)
            {
                text.Append("10,P1,\"oops,10\n");
                continue;
            }

            var id = i.ToString(CultureInfo.InvariantCulture);
            text.Append(CultureInfo.InvariantCulture, $"{id},P{i % 7},free text {i}\n");
            rows.Add(new ExpectedRow(i + 1, i + 1, $"P{i % 7}", id, Properties(("id", id), ("p", $"P{i % 7}"), ("note", $"free text {i}"))));
        }

        var corpus = Generated("stray-quote-among-thousands", text.ToString(), Upsert, ("Loader:PartitionKey", "{p}"), ("Loader:RowKey", "{id}")) with
        {
            Report = new ExpectedCounts(5_000, 4_999, 1, 0, 0),
            Lines = new ExpectedLines(5_001, 1),
            Rejects = [new ExpectedReject(11, 11, null, "malformed quoting: a quote opened on line 11 does not close within 100 lines (Loader:Csv:MaxLinesInQuotes)", "10,P1,\"oops,10\n")],
            Rows = rows,
        };

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    [Fact]
    public async Task A_line_longer_than_any_record_may_be_is_rejected_in_part_and_reading_goes_on()
    {
        // It used to stop the load with exit 3 ("unreachable") past CsvHelper's 16 MiB.
        var huge = new string('x', 3 * 1024 * 1024);
        var text = $"pk,rk,v\np,1,a\np,2,{huge}\np,3,c\n";
        var corpus = Generated("line-longer-than-a-record", text, Upsert) with
        {
            Report = new ExpectedCounts(3, 2, 1, 0, 0),
            Lines = new ExpectedLines(4, 1),
            Rejects = [new ExpectedReject(3, 3, null, "line 3 is longer than 2 MiB (Loader:Csv:MaxRecordBytes), more than any entity can hold", "p,2," + new string('x', 4_092) + "\u2026")],
            Rows =
            [
                new ExpectedRow(2, 2, "p", "1", Properties(("pk", "p"), ("rk", "1"), ("v", "a"))),
                new ExpectedRow(4, 4, "p", "3", Properties(("pk", "p"), ("rk", "3"), ("v", "c"))),
            ],
        };

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    // ---- Rows the service refuses inside a batch: the loader's own checks pass them. ----

    [Fact]
    public async Task Under_Insert_an_entity_that_already_exists_is_refused_by_the_service_and_the_rest_of_its_batch_lands()
    {
        var table = AzuriteFixture.UniqueTableName("corpus");
        var first = Generated("existing", "pk,rk,v\np,taken,original\n", Upsert);
        var existing = new ExpectedRow(2, 2, "p", "taken", Properties(("pk", "p"), ("rk", "taken"), ("v", "original")));
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, first with { Report = new ExpectedCounts(1, 1, 0, 0, 0), Rows = [existing] }, _cancellation, table);

        // One partition, five rows: one batch, whose third operation the service refuses.
        var second = Generated("insert-over-existing", "pk,rk,v\np,a,1\np,b,2\np,taken,new\np,c,3\np,d,4\n", Insert) with
        {
            Report = new ExpectedCounts(5, 4, 1, 0, 0),
            Rejects = [new ExpectedReject(4, 4, "refused by the service (409 EntityAlreadyExists): The specified entity already exists.", null, "p,taken,new")],
            HeldBefore = [existing],
            Rows =
            [
                new ExpectedRow(2, 2, "p", "a", Properties(("pk", "p"), ("rk", "a"), ("v", "1"))),
                new ExpectedRow(3, 3, "p", "b", Properties(("pk", "p"), ("rk", "b"), ("v", "2"))),
                new ExpectedRow(5, 5, "p", "c", Properties(("pk", "p"), ("rk", "c"), ("v", "3"))),
                new ExpectedRow(6, 6, "p", "d", Properties(("pk", "p"), ("rk", "d"), ("v", "4"))),
            ],
        };

        var run = await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, second, _cancellation, table);

        var report = run.RequireReport();
        Assert.Equal(1, report.Batches); // the batch was written once, without the refused row
        Assert.True(report.Requests >= 2, $"the refused batch and its resend are two requests; got {report.Requests}");
    }

    [Fact]
    public async Task Under_Insert_a_key_repeated_in_a_later_batch_is_refused_by_the_service()
    {
        // 100 rows fill the first batch of partition p; the repeat of r000 opens the next batch, sent after the first.
        var text = new StringBuilder("pk,rk,v\n");
        var rows = new List<ExpectedRow>();
        for (var i = 0; i < 100; i++)
        {
            var rk = $"r{i:D3}";
            text.Append(CultureInfo.InvariantCulture, $"p,{rk},{i}\n");
            rows.Add(new ExpectedRow(i + 2, i + 2, "p", rk, Properties(("pk", "p"), ("rk", rk), ("v", i.ToString(CultureInfo.InvariantCulture)))));
        }

        text.Append("p,r000,again\np,r100,last\n");
        rows.Add(new ExpectedRow(103, 103, "p", "r100", Properties(("pk", "p"), ("rk", "r100"), ("v", "last"))));
        var corpus = Generated("insert-repeat-across-batches", text.ToString(), Insert) with
        {
            Report = new ExpectedCounts(102, 101, 1, 0, 0),
            Rejects = [new ExpectedReject(102, 102, "refused by the service (409 EntityAlreadyExists): The specified entity already exists.", null, "p,r000,again")],
            Rows = rows,
        };

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    [Fact]
    public async Task A_property_value_the_service_refuses_rejects_only_its_row_with_the_service_message()
    {
        // 11 columns of 32,000 CJK characters: 704,156 bytes as the loader counts an entity (UTF-16, under 1 MiB),
        // but 1,056,000 bytes of UTF-8 JSON, which Azurite measures and refuses (EntityTooLarge).
        var columns = Enumerable.Range(1, 11).Select(i => $"s{i}").ToArray();
        var text = new StringBuilder("pk,rk,").AppendJoin(',', columns).Append('\n');
        text.Append("p,before,a").Append(',', columns.Length - 1).Append('\n');
        text.Append("p,huge,").AppendJoin(',', columns.Select(_ => new string('\u6771', 32_000))).Append('\n');
        text.Append("p,after,b").Append(',', columns.Length - 1).Append('\n');
        var corpus = Generated("value-the-service-refuses", text.ToString(), Upsert) with
        {
            Report = new ExpectedCounts(3, 2, 1, 0, 0),
            Rejects = [new ExpectedReject(3, 3, "refused by the service (400 EntityTooLarge): The entity is larger than the maximum allowed size (1MB).", null, null)],
            Rows =
            [
                new ExpectedRow(2, 2, "p", "before", Properties(("pk", "p"), ("rk", "before"), ("s1", "a"))),
                new ExpectedRow(4, 4, "p", "after", Properties(("pk", "p"), ("rk", "after"), ("s1", "b"))),
            ],
        };

        var run = await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);

        Assert.Equal(1, run.RequireReport().Batches);
    }

    // ---- Bugs: the expectations say what should happen; see each reason. ----

    [Fact]
    public async Task A_header_with_a_stray_quote_is_reported_as_a_malformed_header() =>
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, CorpusCase.Load("regressions/header-with-a-stray-quote"), _cancellation);

    [Fact]
    public async Task A_header_with_an_unterminated_quote_is_reported_as_a_malformed_header() =>
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, CorpusCase.Load("regressions/header-with-an-unterminated-quote"), _cancellation);

    [Fact]
    public async Task A_key_over_the_services_1_KiB_is_rejected_by_the_loader_naming_the_key() =>
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, CorpusCase.Load("regressions/key-longer-than-the-service-allows"), _cancellation);

    [Fact]
    public async Task A_double_out_of_range_is_rejected_not_stored_as_infinity() =>
        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, CorpusCase.Load("regressions/double-out-of-range"), _cancellation);

    [Fact]
    public async Task A_row_superseded_by_a_row_the_service_refuses_still_lands()
    {
        // Line 2 is valid; line 3 repeats its key in the same batch and replaces it, but the service refuses line 3
        // (EntityTooLarge, as in A_property_value_the_service_refuses_rejects_only_its_row_with_the_service_message). Sent in
        // input order, line 2 would be written and line 3 refused: line 2 must land, not be counted superseded.
        var columns = Enumerable.Range(1, 11).Select(i => $"s{i}").ToArray();
        var text = new StringBuilder("pk,rk,").AppendJoin(',', columns).Append('\n');
        text.Append("p,k,small").Append(',', columns.Length - 1).Append('\n');
        text.Append("p,k,").AppendJoin(',', columns.Select(_ => new string('\u6771', 32_000))).Append('\n');
        text.Append("p,other,x").Append(',', columns.Length - 1).Append('\n');
        var corpus = Generated("superseded-then-refused", text.ToString(), Upsert) with
        {
            Report = new ExpectedCounts(3, 2, 1, 0, 0),
            Rejects = [new ExpectedReject(3, 3, null, "refused by the service (400 EntityTooLarge)", null)],
            Rows =
            [
                new ExpectedRow(2, 2, "p", "k", Properties(("pk", "p"), ("rk", "k"), ("s1", "small"))),
                new ExpectedRow(4, 4, "p", "other", Properties(("pk", "p"), ("rk", "other"), ("s1", "x"))),
            ],
        };

        await CorpusRunner.LoadAndVerifyAsync(azurite, _directory, corpus, _cancellation);
    }

    private CorpusCase Generated(string name, string text, string writeMode, params (string Key, string Value)[] settings)
    {
        var all = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["Loader:PartitionKey"] = "{pk}",
            ["Loader:RowKey"] = "{rk}",
            ["Loader:WriteMode"] = writeMode,
        };
        foreach (var (key, value) in settings)
        {
            all[key] = value;
        }

        return new CorpusCase
        {
            Name = name,
            InputPath = _directory.WriteCsv(name + ".csv", text),
            Settings = all,
            ExitCode = ExitCodes.Success,
        };
    }

    private static Dictionary<string, object> Properties(params (string Name, object Value)[] values) =>
        values.ToDictionary(v => v.Name, v => v.Value, StringComparer.Ordinal);
}
