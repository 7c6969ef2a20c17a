using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Rejects;

/// <summary>
/// Which rejects file a load of each input format writes, for the load that writes it and for verify, which reads it
/// back: JSON Lines for JSON Lines and for Parquet (a row as the JSON object of its columns, so the file loads again),
/// CSV in the input's delimiter otherwise.
/// </summary>
internal static class RejectLayouts
{
    /// <summary>Whether a load of <paramref name="format"/> writes its rejects as JSON Lines.</summary>
    public static bool IsJsonLines(InputFormat format) => format is InputFormat.JsonLines or InputFormat.Parquet;

    /// <summary>The rejects file's layout for <paramref name="source"/> as <paramref name="reader"/> reads it.</summary>
    /// <param name="source">The input: its format, its name and where each of its lines comes from.</param>
    /// <param name="reader">Its reader: the columns a CSV rejects file keeps, and how a Parquet row is named.</param>
    /// <param name="separator">The input's field separator, which a CSV rejects file keeps.</param>
    public static IRejectLayout For(InputSource source, IRecordReader reader, char separator) =>
        !IsJsonLines(source.Format)
            ? new RejectRows(reader.Columns, separator, source.Lines, source.Display)
            : new JsonRejectRows(source.Lines, source.Display, source.Format == InputFormat.Parquet ? reader.Describe : null);
}
