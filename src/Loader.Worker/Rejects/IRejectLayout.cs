using Loader.Abstractions;

namespace Loader.Worker.Rejects;

/// <summary>How rejected records become a rejects file that can be fixed and loaded again: in the input's own format.</summary>
internal interface IRejectLayout
{
    /// <summary>The media type the file is published with.</summary>
    string ContentType { get; }

    /// <summary>How messages name where a record of this load's input is: <c>line 12</c>, or for Parquet <c>row group 2, row 17</c>.</summary>
    string Describe(RowOrigin origin);

    /// <summary>The row of a rejected record, and where a person is told it is (where it was first read).</summary>
    /// <param name="origin">Where the record is in this load's input.</param>
    /// <param name="reason">Why it was rejected, as it may be written.</param>
    /// <param name="recordText">The record as it stood in the input.</param>
    /// <param name="split">Whether the record is whole and may be split into fields; false for one the reader could not split.</param>
    RejectRow Row(RowOrigin origin, string reason, string recordText, bool split);

    /// <summary>Starts the file at <paramref name="path"/>, keeping an earlier run's rejects read on lines up to <paramref name="keepUpToLine"/> when given.</summary>
    IRejectWriter Create(string path, long? keepUpToLine);
}

/// <summary>Writes rows to a rejects file; not thread-safe (the sink locks around it).</summary>
internal interface IRejectWriter : IDisposable
{
    void Write(RejectRow row);

    void Flush();
}
