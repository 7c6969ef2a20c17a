using System.Buffers.Text;

namespace Loader.Worker.Backends.Tables;

/// <summary>
/// Reads the <c>multipart/mixed</c> answer to an entity group transaction once, for the statuses of its operations: a
/// change set that succeeded answers every operation with a 2xx; one that failed answers only the operation that
/// failed, whose error message starts with its index (<c>"3:The specified entity already exists."</c>).
/// </summary>
/// <param name="Operations">The operations the answer holds a status for.</param>
/// <param name="Failure">The first operation that did not succeed, or null when all did.</param>
internal sealed record TableTransactionAnswer(int Operations, TableOperationFailure? Failure)
{
    private static ReadOnlySpan<byte> StatusLine => "HTTP/1.1 "u8;

    /// <exception cref="InvalidDataException">The answer holds no operation's status, or a status line that cannot be read.</exception>
    public static TableTransactionAnswer Parse(ReadOnlySpan<byte> body)
    {
        var operations = 0;
        var rest = body;
        while (true)
        {
            var at = rest.IndexOf(StatusLine);
            if (at < 0)
            {
                return operations > 0
                    ? new TableTransactionAnswer(operations, null)
                    : throw new InvalidDataException("the answer to the transaction holds no operation's status");
            }

            rest = rest[(at + StatusLine.Length)..];
            if (rest.Length < 3 || !Utf8Parser.TryParse(rest[..3], out int status, out var consumed) || consumed != 3)
            {
                throw new InvalidDataException("the answer to the transaction holds a status line that cannot be read");
            }

            operations++;
            if (status is >= 200 and < 300)
            {
                continue;
            }

            // The failed operation's part: its headers, a blank line, then the error body up to the next boundary.
            var headersEnd = rest.IndexOf("\r\n\r\n"u8);
            var content = headersEnd < 0 ? [] : rest[(headersEnd + 4)..];
            var partEnd = content.IndexOf("\r\n--"u8);
            var (code, text) = TableServiceError.Read(partEnd < 0 ? content : content[..partEnd]);
            var (index, message) = TableServiceError.SplitIndex(text);
            return new TableTransactionAnswer(operations, new TableOperationFailure(status, index, code, message));
        }
    }
}
