using System.Globalization;
using System.Text;
using System.Text.Json;
using CsvHelper;
using Loader.Worker.Outcomes;
using Loader.Worker.Tests.Infrastructure;

namespace Loader.Worker.Tests.EndToEnd;

/// <summary>
/// The round trip of a rejects file into Azurite: a load with bad rows, the rejects file fixed as a spreadsheet fixes it
/// (cells of the input's columns edited, the loader's columns left as they are) and loaded again with the same settings,
/// then the table read back. Through the real host, and through the real process as a user runs it.
/// </summary>
public sealed class RejectsReplayTests(AzuriteFixture azurite) : IDisposable
{
    private const int TooLong = 40_000; // characters: more than the 32,768 (64 KiB) a Table string property holds

    // The input's lines: 2 and 10 load; 3 to 9 are rejected, each for another cause; 7-8 is one record over two lines.
    private static readonly string s_input = new StringBuilder("dest,id,n,when,note\n")
        .Append("LAX,1,1,2024-01-01T00:00:00Z,first\n")
        .Append("LAX,2,forty,2024-01-02T00:00:00Z,a bad number\n")
        .Append(",3,3,2024-01-03T00:00:00Z,no partition key\n")
        .Append(CultureInfo.InvariantCulture, $"SFO,4,4,2024-01-04T00:00:00Z,{new string('x', TooLong)}\n")
        .Append("SFO,5,5,2024-01-05T00:00:00Z,say \"hi\"\n")
        .Append("SEA,6,six,2024-01-06T00:00:00Z,\"two\nlines\"\n")
        .Append("SEA,7,seven,2024-01-07T00:00:00Z,left as it is\n")
        .Append("SEA,8,8,2024-01-08T00:00:00Z,last\n")
        .ToString();

    private readonly CancellationToken _cancellation = TestContext.Current.CancellationToken;
    private readonly TestDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Rejects_fixed_in_a_spreadsheet_and_loaded_again_land_whole_and_a_row_left_unfixed_keeps_its_original_line()
    {
        var table = AzuriteFixture.UniqueTableName("replay");
        var input = _directory.WriteCsv("flights.csv", s_input);

        var first = await LoaderRunner.RunAsync(Settings(input, table, "rejects.csv", "report.json"), _cancellation);

        Assert.Equal(ExitCodes.Success, first.ExitCode);
        Assert.Equal((8L, 2L, 6L), (first.RequireReport().RowsRead, first.RequireReport().RowsWritten, first.RequireReport().RowsRejected));
        AssertRejectsAsRead(RejectsFile.Read(_directory.File("rejects.csv")), input);

        var replayed = FixAsASpreadsheetWould(_directory.File("rejects.csv"), _directory.File("fixed.csv"));
        var replay = await LoaderRunner.RunAsync(Settings(replayed, table, "rejects-again.csv", "report-again.json"), _cancellation);

        Assert.Equal(ExitCodes.Success, replay.ExitCode);
        AssertReplayed(input);
        Assert.Contains(replay.Logs.Logs, log => log.Message == "Rejected line 9 (line 8 of this input, a rejects file): " + UnfixedReason);
        await AssertTableHoldsEveryRowButTheUnfixedAsync(table);

        // The last step of the round trip: verify, with the replay's own settings, finds the target as the replay left
        // it (the row still rejected is expected absent by the replay's rejects file).
        var verified = await VerifyRunner.RunAsync(Settings(replayed, table, "rejects-again.csv", "report-again.json"), _cancellation);
        var verify = verified.RequireReport();
        Assert.True(verified.ExitCode == ExitCodes.Success, verified.Summary);
        Assert.Equal((0L, 0L), (verify.RowsMissing, verify.RowsDifferent));
        Assert.True(verify.RowsMatching > 0, verified.Summary);
    }

    [Fact]
    public async Task The_process_run_as_a_user_runs_it_loads_a_fixed_rejects_file_given_as_input_with_the_same_settings()
    {
        var table = AzuriteFixture.UniqueTableName("replayproc");
        var input = _directory.WriteCsv("flights.csv", s_input);

        await using (var first = LoaderProcess.StartWithArguments(Arguments(input, table, "rejects.csv", "report.json")))
        {
            Assert.Equal(ExitCodes.Success, await first.WaitForExitAsync(TimeSpan.FromMinutes(2), _cancellation));
        }

        AssertRejectsAsRead(RejectsFile.Read(_directory.File("rejects.csv")), input);
        var replayed = FixAsASpreadsheetWould(_directory.File("rejects.csv"), _directory.File("fixed.csv"));
        await using (var check = LoaderProcess.StartWithArguments([.. Arguments(replayed, table, "rejects-again.csv", "report-again.json"), "--check", "--Loader:LogFormat=Text"]))
        {
            Assert.Equal(ExitCodes.Success, await check.WaitForExitAsync(TimeSpan.FromMinutes(2), _cancellation));
            Assert.Contains("its header of 5 columns fits the key templates and column types (and 6 columns of a rejects file, which are not loaded)", check.Output, StringComparison.Ordinal);
        }

        await using var replay = LoaderProcess.StartWithArguments(Arguments(replayed, table, "rejects-again.csv", "report-again.json"));

        Assert.Equal(ExitCodes.Success, await replay.WaitForExitAsync(TimeSpan.FromMinutes(2), _cancellation));
        AssertReplayed(input);
        Assert.Contains("Rejected line 9 (line 8 of this input, a rejects file): " + UnfixedReason, replay.LoggedMessages());
        await AssertTableHoldsEveryRowButTheUnfixedAsync(table);
    }

    private const string UnfixedReason = "column 'n': 'seven' is not a valid Int32 in the invariant culture";

    private Dictionary<string, string?> Settings(string input, string table, string rejects, string report) => new()
    {
        ["Loader:Input"] = input,
        ["Loader:Tables:ConnectionString"] = azurite.ConnectionString,
        ["Loader:Tables:Table"] = table,
        ["Loader:PartitionKey"] = "{dest}",
        ["Loader:RowKey"] = "{id}",
        ["Loader:Columns:n"] = "Int32",
        ["Loader:Columns:when"] = "DateTime",
        ["Loader:RejectsPath"] = _directory.File(rejects),
        ["Loader:ReportPath"] = _directory.File(report),
    };

    /// <summary>The command line a user types: the switches for the settings they have.</summary>
    private string[] Arguments(string input, string table, string rejects, string report) =>
    [
        "--input", input, "--table", table, "--partition-key", "{dest}", "--row-key", "{id}",
        $"--Loader:Tables:ConnectionString={azurite.ConnectionString}", "--Loader:Columns:n=Int32", "--Loader:Columns:when=DateTime",
        "--rejects", _directory.File(rejects), "--report", _directory.File(report),
    ];

    /// <summary>The first load's rejects file: the input's header and each rejected record's fields as read, then why and where.</summary>
    private static void AssertRejectsAsRead(RejectsFile rejects, string input)
    {
        Assert.Equal(["dest", "id", "n", "when", "note"], rejects.DataColumns);
        Assert.Equal([3L, 4L, 5L, 6L, 7L, 9L], rejects.Rows.Select(row => row.Line));
        Assert.All(rejects.Rows, row => Assert.Equal((input, row.Line, row.Line), (row.File, row.FileLine, row.InputLine)));
        var byLine = rejects.Rows.ToDictionary(row => row.Line);

        Assert.Equal(["LAX", "2", "forty", "2024-01-02T00:00:00Z", "a bad number"], byLine[3].Fields);
        Assert.Equal("column 'n': 'forty' is not a valid Int32 in the invariant culture", byLine[3].Reason);
        Assert.Equal(["", "3", "3", "2024-01-03T00:00:00Z", "no partition key"], byLine[4].Fields);
        Assert.Equal("partition key is empty: column 'dest' is empty", byLine[4].Reason);
        Assert.Equal(new string('x', TooLong), byLine[5].Fields[4]);
        Assert.Contains("column 'note': 40,000 characters, longer than", byLine[5].Reason, StringComparison.Ordinal);
        Assert.Equal(["", "", "", "", ""], byLine[6].Fields); // the broken quote: its text kept whole instead
        Assert.Equal("SFO,5,5,2024-01-05T00:00:00Z,say \"hi\"", byLine[6].Record);
        Assert.StartsWith("malformed quoting", byLine[6].Reason, StringComparison.Ordinal);
        Assert.Equal(["SEA", "6", "six", "2024-01-06T00:00:00Z", "two\nlines"], byLine[7].Fields); // two lines of input, one record
        Assert.Equal(["SEA", "7", "seven", "2024-01-07T00:00:00Z", "left as it is"], byLine[9].Fields);
        Assert.All(rejects.Rows.Where(row => row.Line != 6), row => Assert.Empty(row.Record));
    }

    /// <summary>
    /// Fixes the rejects file as a person does in a spreadsheet: edits cells of the input's columns, fills the columns of the
    /// record kept as text, leaves line 9 as it is and the loader's columns untouched, and saves it as Excel's "CSV UTF-8"
    /// does (a byte-order mark, CRLF line ends).
    /// </summary>
    private static string FixAsASpreadsheetWould(string rejectsPath, string fixedPath)
    {
        var rejects = RejectsFile.Read(rejectsPath);
        var edits = new Dictionary<long, Dictionary<string, string>>
        {
            [3] = new() { ["n"] = "40" },
            [4] = new() { ["dest"] = "LAX" },
            [5] = new() { ["note"] = "now short" },
            [6] = new() { ["dest"] = "SFO", ["id"] = "5", ["n"] = "5", ["when"] = "2024-01-05T00:00:00Z", ["note"] = "say \"hi\"" },
            [7] = new() { ["n"] = "6" },
        };
        using var writer = CsvWriter.ToFile(fixedPath, CsvWriterOptions.Default with { NewLine = "\r\n", WriteByteOrderMark = true, Injection = CsvInjection.None });
        writer.WriteHeader([.. rejects.Header]);
        foreach (var row in rejects.Rows)
        {
            var edit = edits.GetValueOrDefault(row.Line) ?? [];
            writer.WriteRecord([.. rejects.Header.Select((column, i) => edit.GetValueOrDefault(column) ?? row.Cells[i])]);
        }

        return fixedPath;
    }

    /// <summary>The replay's report file: the six rows read, the fixed five written, the unfixed one rejected again under its original line.</summary>
    private void AssertReplayed(string input)
    {
        using var report = JsonDocument.Parse(File.ReadAllText(_directory.File("report-again.json")));
        var root = report.RootElement;
        Assert.Equal((6L, 5L, 1L, true), (root.GetProperty("rowsRead").GetInt64(), root.GetProperty("rowsWritten").GetInt64(), root.GetProperty("rowsRejected").GetInt64(), root.GetProperty("reconciled").GetBoolean()));
        var example = Assert.Single(Assert.Single(root.GetProperty("rejectReasons").EnumerateArray()).GetProperty("examples").EnumerateArray());
        // Line 9 of the first input, line 8 of the fixed file.
        Assert.Equal((9L, 8L, UnfixedReason), (example.GetProperty("line").GetInt64(), example.GetProperty("inputLine").GetInt64(), example.GetProperty("reason").GetString()));

        var again = Assert.Single(RejectsFile.Read(_directory.File("rejects-again.csv")).Rows);
        Assert.Equal(["SEA", "7", "seven", "2024-01-07T00:00:00Z", "left as it is"], again.Fields);
        Assert.Equal((UnfixedReason, 9L, input, 9L, "", 8L), (again.Reason, again.Line, again.File, again.FileLine, again.Record, again.InputLine));
    }

    /// <summary>Every row but the unfixed one, with its typed values, and no property of the loader's columns.</summary>
    private async Task AssertTableHoldsEveryRowButTheUnfixedAsync(string table)
    {
        var stored = await azurite.ReadTableAsync(table, _cancellation);
        var expected = new Dictionary<(string, string), (int N, string Note)>
        {
            [("LAX", "1")] = (1, "first"),
            [("LAX", "2")] = (40, "a bad number"),
            [("LAX", "3")] = (3, "no partition key"),
            [("SFO", "4")] = (4, "now short"),
            [("SFO", "5")] = (5, "say \"hi\""),
            [("SEA", "6")] = (6, "two\nlines"),
            [("SEA", "8")] = (8, "last"),
        };
        Assert.Equal(expected.Keys.Order(), stored.Keys.Order());
        foreach (var ((dest, id), (n, note)) in expected)
        {
            var day = int.Parse(id, CultureInfo.InvariantCulture);
            var properties = stored[(dest, id)].Properties;
            Assert.Equal(["dest", "id", "n", "note", "when"], properties.Keys.Order(StringComparer.Ordinal));
            Assert.Equal(n, Assert.IsType<int>(properties["n"]));
            Assert.Equal(new DateTime(2024, 1, day, 0, 0, 0, DateTimeKind.Utc), Assert.IsType<DateTime>(properties["when"]));
            Assert.Equal(note, properties["note"]);
        }
    }
}
