using System.Buffers;
using System.Text;
using Loader.Worker.Records;

namespace Loader.Worker.Mapping;

/// <summary>A key template bound to column positions: renders a key from a record's fields without lookups.</summary>
internal sealed class CompiledKeyTemplate
{
    private readonly string?[] _literals;
    private readonly int[] _columns;
    private readonly string[] _columnNames;

    private CompiledKeyTemplate(string?[] literals, int[] columns, string[] columnNames, string text)
    {
        _literals = literals;
        _columns = columns;
        _columnNames = columnNames;
        Text = text;
        SingleColumn = columnNames.Where(name => name is not null).Distinct(StringComparer.Ordinal).Count() == 1 && literals.All(literal => literal is null);
    }

    /// <summary>The template as configured.</summary>
    public string Text { get; }

    /// <summary>Whether the key is one column and nothing else, so an empty column is an empty key.</summary>
    public bool SingleColumn { get; }

    /// <summary>Binds the template to a header; a missing column throws with its name.</summary>
    public static CompiledKeyTemplate Compile(KeyTemplate template, IReadOnlyDictionary<string, int> columnIndex)
    {
        var segments = template.Segments;
        var literals = new string?[segments.Count];
        var columns = new int[segments.Count];
        var names = new string[segments.Count];
        for (var i = 0; i < segments.Count; i++)
        {
            var segment = segments[i];
            if (segment.IsColumn)
            {
                if (!columnIndex.TryGetValue(segment.Value, out var index))
                {
                    throw new KeyNotFoundException(segment.Value);
                }

                columns[i] = index;
                names[i] = segment.Value;
            }
            else
            {
                literals[i] = segment.Value;
                columns[i] = -1;
                names[i] = "";
            }
        }

        return new CompiledKeyTemplate(literals, columns, names, template.Text);
    }

    /// <summary>
    /// Renders the key from the record the reader stands on; returns null and the name of the first referenced
    /// column that is empty. A single-column key is that cell's string, kept in <paramref name="strings"/> (the
    /// mapper's per-record cache, so a key column that is also a property is decoded once); any other key is
    /// decoded straight from the cells' UTF-8 into one string, without a string per cell.
    /// </summary>
    public string? Render<TRecord>(in TRecord record, string?[] strings, out string? emptyColumn)
        where TRecord : struct, IRecordFields
    {
        emptyColumn = null;
        if (_columns.Length == 1 && _columns[0] >= 0)
        {
            var column = _columns[0];
            if (record.IsTyped)
            {
                // A typed cell's string is its text (empty for a null): made once, whether it is empty or not.
                var text = strings[column] ??= record.GetString(column);
                emptyColumn = text.Length == 0 ? _columnNames[0] : null;
                return text.Length == 0 ? null : text;
            }

            if (record.GetSpan(column).IsEmpty)
            {
                emptyColumn = _columnNames[0];
                return null;
            }

            return strings[column] ??= record.GetString(column);
        }

        if (record.IsTyped)
        {
            return RenderTyped(record, out emptyColumn);
        }

        var length = 0;
        for (var i = 0; i < _columns.Length; i++)
        {
            if (_columns[i] < 0)
            {
                length += _literals[i]!.Length;
                continue;
            }

            var cell = record.GetSpan(_columns[i]);
            if (cell.IsEmpty)
            {
                emptyColumn = _columnNames[i];
                return null;
            }

            length += Encoding.UTF8.GetCharCount(cell);
        }

        var fields = record;
        return string.Create(length, (this, fields), static (span, state) =>
        {
            var (template, record) = state;
            for (var i = 0; i < template._columns.Length; i++)
            {
                var written = template._columns[i] < 0
                    ? Copy(template._literals[i]!, span)
                    : Encoding.UTF8.GetChars(record.GetSpan(template._columns[i]), span);
                span = span[written..];
            }
        });
    }

    /// <summary>
    /// A key of several parts from a typed record's fields, each written as characters straight into the key
    /// (<see cref="IRecordFields.WriteText"/>): no UTF-8 in between, and no text kept for a part. A key longer than the
    /// stack's buffer is written again into a larger one.
    /// </summary>
    [System.Runtime.CompilerServices.SkipLocalsInit] // the key's characters are read only where written: no need to zero 512 bytes a row
    private string? RenderTyped<TRecord>(in TRecord record, out string? emptyColumn)
        where TRecord : struct, IRecordFields
    {
        emptyColumn = null;
        Span<char> key = stackalloc char[256];
        char[]? rented = null;
        try
        {
            while (true)
            {
                var length = 0;
                for (var i = 0; i < _columns.Length && length >= 0; i++)
                {
                    var destination = key[length..];
                    var written = _columns[i] < 0
                        ? (_literals[i].AsSpan().TryCopyTo(destination) ? _literals[i]!.Length : -1)
                        : record.WriteText(_columns[i], destination);
                    if (written == 0 && _columns[i] >= 0)
                    {
                        emptyColumn = _columnNames[i];
                        return null;
                    }

                    length = written < 0 ? -1 : length + written;
                }

                if (length >= 0)
                {
                    return new string(key[..length]);
                }

                var larger = ArrayPool<char>.Shared.Rent(key.Length * 2);
                if (rented is not null)
                {
                    ArrayPool<char>.Shared.Return(rented);
                }

                rented = larger;
                key = larger;
            }
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<char>.Shared.Return(rented);
            }
        }
    }

    private static int Copy(string literal, Span<char> destination)
    {
        literal.AsSpan().CopyTo(destination);
        return literal.Length;
    }
}
