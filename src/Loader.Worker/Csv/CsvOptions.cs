using System.ComponentModel.DataAnnotations;
using Loader.Abstractions;
using Loader.Worker.Inputs;

namespace Loader.Worker.Csv;

/// <summary>How the input is parsed (<c>Loader:Csv</c>).</summary>
internal sealed class CsvOptions
{
    /// <summary>
    /// How the input is compressed: <see cref="InputCompression.Auto"/> (a blob's Content-Encoding, else the extension),
    /// <see cref="InputCompression.None"/>, or one codec for every file.
    /// </summary>
    public InputCompression Compression { get; set; } = InputCompression.Auto;

    /// <summary>Field delimiter; <c>\t</c> for tab.</summary>
    [Accepts("one ASCII character, \\t for tab; not a quote or a line break")]
    public string Delimiter { get; set; } = ",";

    /// <summary>Culture for numbers and dates in typed columns; empty for the invariant culture.</summary>
    [Accepts("a culture name such as en-US or de-DE; empty for the invariant culture")]
    public string Culture { get; set; } = "";

    /// <summary>
    /// Whether numbers may hold the culture's group separator, where the culture groups digits (1,234.5; 1.234,5 in
    /// de-DE). Off by default: a separator in a number is then refused, since a decimal comma read in the wrong
    /// culture would otherwise turn 3,14 into 314.
    /// </summary>
    public bool AllowGroupSeparators { get; set; }

    /// <summary>
    /// The time zone of DateTime values that name none (<c>2024-03-31 02:30</c>): <c>UTC</c>, or any IANA
    /// (<c>Europe/Berlin</c>) or Windows (<c>W. Europe Standard Time</c>) zone id. Values with <c>Z</c> or an offset keep
    /// theirs; every value is stored in UTC. A time the zone skips (clocks going forward) is rejected; a time it has twice
    /// (clocks going back) is taken as the first, in daylight-saving time.
    /// </summary>
    [Accepts("UTC, an IANA (Europe/Berlin) or Windows (W. Europe Standard Time) time zone id this machine knows")]
    public string TimeZone { get; set; } = "UTC";

    /// <summary>Threads that map records to entities, for every format; 0 picks one per core but one for CSV (whose read thread parses), one per core for JSON Lines and Parquet, up to four. Order is kept whatever the number.</summary>
    // CsvHelper's ParallelEnumerate takes any number of workers, starting a thread for each; the loader's own ceiling
    // keeps a typo from starting thousands (past the cores they only wait).
    [Range(0, 256)]
    public int MapThreads { get; set; }

    /// <summary>
    /// Lines a quoted field may span. A quote that opens a field and does not close within them is taken for a stray
    /// quote: its line is rejected and reading goes on with the next line, instead of one record swallowing the file.
    /// </summary>
    // The loader's own limits: a quoted field of one line at least, of at most a million lines.
    [Range(1, 1_000_000)]
    public int MaxLinesInQuotes { get; set; } = 100;

    /// <summary>
    /// The longest record, in bytes of input: 2 MiB, the largest entity either service holds (a Cosmos DB item; a Table
    /// entity is 1 MiB). A longer line or record is rejected and reading goes on after it; so is a quote still open
    /// after this many bytes.
    /// </summary>
    // The loader's own limits: at least the 4 KiB a rejected record's text is kept to (RunawayQuoteGuard.KeptTextBytes), at most 256 MiB held for one record.
    [Range(4096, 256 * 1024 * 1024)]
    public int MaxRecordBytes { get; set; } = 2 * 1024 * 1024;
}
