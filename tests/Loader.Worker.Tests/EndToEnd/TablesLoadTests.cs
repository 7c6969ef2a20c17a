using System.Globalization;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>Whole loads through the real host into a real Azurite, read back and compared value by value.</summary>
public sealed class TablesLoadTests(AzuriteFixture azurite) : IDisposable
{
    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private Dictionary<string, string?> Settings(string input, string table, string partitionKey = "{pk}", string rowKey = "{rk}") => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = partitionKey,
        ["Loader:RowKey"] = rowKey,
        ["Loader:ProgressInterval"] = "00:00:01",
        ["Loader:ReportPath"] = _directory.File("report.json"),
        ["Loader:RejectsPath"] = _directory.File("rejects.csv"),
    };

    [Fact]
    public async Task Loads_the_sample_and_reads_every_row_back()
    {
        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(Path.Combine(RepositoryPaths.Data, "sample.csv"), table, "{dest}", "{year}-{month}-{day}-{carrier}-{flight}");
        settings["Loader:Columns:year"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((300, 300, 0, 0, 0), (report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded, report.RowsFailed));
        Assert.True(report.Reconciled);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(300, stored.Count);
        var report2 = Loader.Worker.Reporting.ReportWriter.Read(_directory.File("report.json"));
        Assert.Equal(report.RowsWritten, report2.RowsWritten);
    }

    [Fact]
    public async Task Every_shape_of_partition_lands_with_its_typed_values()
    {
        // One partition of 350 rows (four batches), 200 single-row partitions, 50 partitions of five rows.
        var csv = new CsvText("pk", "rk", "name", "count", "amount", "flag", "when", "id", "big", "note");
        var expected = new Dictionary<(string, string), Dictionary<string, object>>();
        var random = new Random(3);
        var rows = new List<object?[]>();
        void Add(string pk, string rk)
        {
            var i = rows.Count;
            var note = (i % 7) switch
            {
                0 => "plain",
                1 => "a, b, and c",
                2 => "two\nlines",
                3 => "quote \"inside\"",
                4 => "Zürich ✈ 東京 — ünïcödé",
                5 => "", // empty cell: not written
                _ => " padded ",
            };
            var values = new Dictionary<string, object>
            {
                ["name"] = $"name {i}",
                ["count"] = i,
                ["amount"] = Math.Round(random.NextDouble() * 1000, 3),
                ["flag"] = i % 2 == 0,
                ["when"] = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddMinutes(i * 37),
                ["id"] = new Guid(i, 1, 2, [3, 4, 5, 6, 7, 8, 9, 10]),
                ["big"] = 10_000_000_000L + i,
            };
            if (note.Length > 0)
            {
                values["note"] = note;
            }

            expected[(pk, rk)] = values;
            rows.Add([pk, rk, values["name"], i, ((double)values["amount"]).ToString("R", CultureInfo.InvariantCulture), values["flag"].ToString()!.ToLowerInvariant(),
                ((DateTime)values["when"]).ToString("o", CultureInfo.InvariantCulture), values["id"], values["big"], note]);
        }

        for (var i = 0; i < 350; i++)
        {
            Add("big", $"r{i:D4}");
        }

        for (var i = 0; i < 200; i++)
        {
            Add($"single{i}", "only");
        }

        for (var p = 0; p < 50; p++)
        {
            for (var i = 0; i < 5; i++)
            {
                Add($"five{p}", $"r{i}");
            }
        }

        foreach (var row in rows.OrderBy(_ => random.Next()))
        {
            csv.Row(row);
        }

        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(_directory.WriteCsv("shapes.csv", csv.ToString()), table);
        settings["Loader:Columns:count"] = "Int32";
        settings["Loader:Columns:amount"] = "Double";
        settings["Loader:Columns:flag"] = "Boolean";
        settings["Loader:Columns:when"] = "DateTime";
        settings["Loader:Columns:id"] = "Guid";
        settings["Loader:Columns:big"] = "Int64";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(rows.Count, report.RowsWritten);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(expected.Keys.Order(), stored.Keys.Order());
        foreach (var (key, values) in expected)
        {
            var properties = stored[key].Properties;
            Assert.Equal(values.Keys.Append("pk").Append("rk").Order(), properties.Keys.Order());
            foreach (var (name, value) in values)
            {
                Assert.Equal(value, properties[name]);
                Assert.Equal(value.GetType(), properties[name].GetType());
            }
        }

        // The big partition needed four transactions; single-row partitions one each.
        Assert.True(report.Batches >= 4 + 200 + 50, $"batches: {report.Batches}");
    }

    [Fact]
    public async Task A_repeated_key_ends_with_the_later_row_inside_a_batch_and_across_batches()
    {
        var csv = new CsvText("pk", "rk", "v");
        csv.Row("p", "inside", "first");
        csv.Row("p", "inside", "second");       // same batch: supersedes the first
        for (var i = 0; i < 250; i++)
        {
            csv.Row("p", $"filler{i}", i);      // pushes the next repeat into a later batch
        }

        csv.Row("p", "inside", "third");        // later batch: written after the first batch, wins
        csv.Row("q", "solo", "x");
        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(_directory.WriteCsv("repeats.csv", csv.ToString()), table);
        settings["Loader:MaxParallelBatches"] = "8";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(254, report.RowsRead);
        Assert.Equal(1, report.RowsSuperseded);
        Assert.Equal(253, report.RowsWritten);
        Assert.True(report.Reconciled);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(252, stored.Count);
        Assert.Equal("third", stored[("p", "inside")].Properties["v"]);
    }

    [Fact]
    public async Task An_input_larger_than_the_partial_batch_buffer_lands_whole()
    {
        var csv = new CsvText("pk", "rk", "v");
        for (var i = 0; i < 3_000; i++)
        {
            csv.Row($"p{i % 700}", $"r{i}", i);
        }

        var table = AzuriteFixture.UniqueTableName();
        var settings = Settings(_directory.WriteCsv("wide.csv", csv.ToString()), table);
        settings["Loader:MaxBufferedRows"] = "100";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal(3_000, report.RowsWritten);
        Assert.True(report.Batches > 700, $"a 100-row buffer over 700 partitions sends small batches; got {report.Batches}");
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(3_000, stored.Count);
        Assert.All(stored, pair => Assert.Equal(int.Parse(pair.Key.Item2[1..], CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture), pair.Value.Properties["v"]));
    }

    [Fact]
    public async Task Merge_folds_repeated_keys_and_keeps_properties_the_row_does_not_carry()
    {
        var table = AzuriteFixture.UniqueTableName();
        var first = new CsvText("pk", "rk", "a", "b").Row("p", "k", "a1", "b1").Row("p", "other", "x", "");
        var firstRun = await LoaderRunner.RunAsync(Settings(_directory.WriteCsv("first.csv", first.ToString()), table), _cancellation);
        Assert.Equal(ExitCodes.Success, firstRun.ExitCode);

        var second = new CsvText("pk", "rk", "b", "c").Row("p", "k", "b2", "").Row("p", "k", "", "c3");
        var settings = Settings(_directory.WriteCsv("second.csv", second.ToString()), table);
        settings["Loader:WriteMode"] = "Merge";
        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((2, 1, 1), (report.RowsRead, report.RowsWritten, report.RowsSuperseded));
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(
            new Dictionary<string, object> { ["pk"] = "p", ["rk"] = "k", ["a"] = "a1", ["b"] = "b2", ["c"] = "c3" },
            stored[("p", "k")].Properties);
    }

    [Fact]
    public async Task Delete_takes_only_the_keys_deletes_the_stored_entities_and_counts_the_missing_ones_already_absent()
    {
        var table = AzuriteFixture.UniqueTableName();
        var stored = new CsvText("pk", "rk", "v");
        for (var i = 0; i < 200; i++)
        {
            stored.Row($"p{i % 2}", $"r{i}", i);
        }

        Assert.Equal(ExitCodes.Success, (await LoaderRunner.RunAsync(Settings(_directory.WriteCsv("stored.csv", stored.ToString()), table), _cancellation)).ExitCode);

        // Rows 0-149 are stored, every fourth row names a key that is not, one key repeats; 'v' would not pass as Int32.
        var deletes = new CsvText("pk", "rk", "v");
        for (var i = 0; i < 150; i++)
        {
            deletes.Row($"p{i % 2}", $"r{i}", "not a number");
            if (i % 4 == 0)
            {
                deletes.Row($"p{i % 2}", $"absent{i}", "");
            }
        }

        deletes.Row("p0", "r0", "");
        var settings = Settings(_directory.WriteCsv("deletes.csv", deletes.ToString()), table);
        settings["Loader:WriteMode"] = "Delete";
        settings["Loader:Columns:v"] = "Int32";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal(ExitCodes.Success, run.ExitCode);
        Assert.Equal((189L, 150L, 0L, 0L), (report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsFailed));
        Assert.InRange(report.RowsAlreadyAbsent, 38L, 39L);
        Assert.Equal(39L, report.RowsAlreadyAbsent + report.RowsSuperseded); // the repeated key: folded into the waiting delete, or deleted again and found absent
        Assert.True(report.Reconciled);
        Assert.Contains("already absent", run.Summary, StringComparison.Ordinal);
        var left = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(Enumerable.Range(150, 50).Select(i => $"r{i}").Order(StringComparer.Ordinal), left.Keys.Select(key => key.Item2).Order(StringComparer.Ordinal));
    }

    [Fact]
    public async Task Replace_swaps_stored_entities_for_the_rows_and_rejects_a_row_whose_entity_is_missing()
    {
        var table = AzuriteFixture.UniqueTableName();
        var first = new CsvText("pk", "rk", "a", "b").Row("p", "k", "a1", "b1");
        Assert.Equal(ExitCodes.Success, (await LoaderRunner.RunAsync(Settings(_directory.WriteCsv("first.csv", first.ToString()), table), _cancellation)).ExitCode);

        var second = new CsvText("pk", "rk", "b").Row("p", "k", "b2").Row("p", "missing", "x");
        var settings = Settings(_directory.WriteCsv("second.csv", second.ToString()), table);
        settings["Loader:WriteMode"] = "Replace";
        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.Equal((2L, 1L, 1L), (report.RowsRead, report.RowsWritten, report.RowsRejected));
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(new Dictionary<string, object> { ["pk"] = "p", ["rk"] = "k", ["b"] = "b2" }, stored[("p", "k")].Properties);
        Assert.False(stored.ContainsKey(("p", "missing")));
        var reject = Assert.Single(RejectsFile.Read(_directory.File("rejects.csv")).Rows);
        Assert.Equal(["p", "missing", "x"], reject.Fields);
        Assert.Contains("(404 ResourceNotFound)", reject.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_semicolon_file_with_german_numbers_loads_with_delimiter_and_culture_set()
    {
        var table = AzuriteFixture.UniqueTableName();
        var input = _directory.WriteCsv("de.csv", "pk;rk;amount\np;1;\"1.234,5\"\np;2;0,25\n");
        var settings = Settings(input, table);
        settings["Loader:Csv:Delimiter"] = ";";
        settings["Loader:Csv:Culture"] = "de-DE";
        settings["Loader:Csv:AllowGroupSeparators"] = "true";
        settings["Loader:Columns:amount"] = "Double";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        Assert.Equal(ExitCodes.Success, run.ExitCode);
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        Assert.Equal(1234.5, stored[("p", "1")].Properties["amount"]);
        Assert.Equal(0.25, stored[("p", "2")].Properties["amount"]);
    }

    [Fact]
    public async Task A_dry_run_checks_everything_and_writes_nothing()
    {
        var table = AzuriteFixture.UniqueTableName();
        var csv = new CsvText("pk", "rk", "n").Row("p", "1", "5").Row("p", "2", "five").Row("p", "1", "6");
        var settings = Settings(_directory.WriteCsv("dry.csv", csv.ToString()), table);
        settings["Loader:Columns:n"] = "Int32";
        settings["Loader:DryRun"] = "true";

        var run = await LoaderRunner.RunAsync(settings, _cancellation);

        var report = run.RequireReport();
        Assert.True(report.DryRun);
        Assert.Equal((3, 1, 1, 1), (report.RowsRead, report.RowsWritten, report.RowsRejected, report.RowsSuperseded));
        Assert.Contains("would write", run.Summary, StringComparison.Ordinal);
        var exception = await Assert.ThrowsAsync<Azure.RequestFailedException>(async () => await azurite.ReadTableAsync(table, _cancellation));
        Assert.Equal(404, exception.Status);
    }
}
