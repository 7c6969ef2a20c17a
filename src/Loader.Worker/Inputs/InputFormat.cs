namespace Loader.Worker.Inputs;

/// <summary>
/// How the records of the input are written (<c>Loader:Format</c>). <see cref="Auto"/> decides per part by the extension
/// left once a compression suffix is taken off the name (<c>.jsonl.gz</c> is JSON Lines); any other value applies to
/// every part.
/// </summary>
internal enum InputFormat
{
    /// <summary>Per part, by its name: <c>.jsonl</c> and <c>.ndjson</c> JSON Lines, <c>.parquet</c> Parquet, anything else CSV.</summary>
    Auto,

    /// <summary>Delimited text with a header row (<c>.csv</c>, <c>.tsv</c>, or no known extension); <c>Loader:Csv</c> says how to read it.</summary>
    Csv,

    /// <summary>One JSON object per line (<c>.jsonl</c>, <c>.ndjson</c>), UTF-8.</summary>
    JsonLines,

    /// <summary>Apache Parquet (<c>.parquet</c>), compressed inside.</summary>
    Parquet,
}
