namespace Loader.Worker.Mapping;

/// <summary>A key template bound to column positions: renders a key from a record's fields without lookups.</summary>
internal sealed class CompiledKeyTemplate
{
    private readonly string?[] _literals;
    private readonly int[] _columns;
    private readonly string[] _columnNames;

    private CompiledKeyTemplate(string?[] literals, int[] columns, string[] columnNames)
    {
        _literals = literals;
        _columns = columns;
        _columnNames = columnNames;
    }

    /// <summary>Positions of the columns the template reads.</summary>
    public IEnumerable<int> ColumnIndexes => _columns.Where(index => index >= 0);

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

        return new CompiledKeyTemplate(literals, columns, names);
    }

    /// <summary>Renders the key; returns null and the name of the first referenced column that is empty.</summary>
    public string? Render(string[] fields, out string? emptyColumn)
    {
        emptyColumn = null;
        if (_columns.Length == 1 && _columns[0] >= 0)
        {
            var only = fields[_columns[0]];
            if (only.Length == 0)
            {
                emptyColumn = _columnNames[0];
                return null;
            }

            return only;
        }

        var length = 0;
        for (var i = 0; i < _columns.Length; i++)
        {
            if (_columns[i] < 0)
            {
                length += _literals[i]!.Length;
                continue;
            }

            var value = fields[_columns[i]];
            if (value.Length == 0)
            {
                emptyColumn = _columnNames[i];
                return null;
            }

            length += value.Length;
        }

        return string.Create(length, (this, fields), static (span, state) =>
        {
            var (template, fields) = state;
            for (var i = 0; i < template._columns.Length; i++)
            {
                var part = template._columns[i] < 0 ? template._literals[i]! : fields[template._columns[i]];
                part.AsSpan().CopyTo(span);
                span = span[part.Length..];
            }
        });
    }
}
