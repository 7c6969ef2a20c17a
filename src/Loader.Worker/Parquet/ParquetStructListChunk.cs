using System.Buffers;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;
using Parquet;

namespace Loader.Worker.Parquet;

/// <summary>
/// A list-of-structs or map column of one row group: each leaf of the elements' fields (a map's key and value) read as a
/// list column of its own, then walked together entry by entry (they share the list's repetition), each row written when
/// its cell is taken: a list as one JSON array of objects (a null element a null, a null field a null member), a map as
/// one JSON object.
/// </summary>
internal sealed class ParquetStructListChunk : ParquetColumnChunk
{
    private readonly ParquetColumn _column;
    private readonly ParquetColumnChunk[] _chunks;
    private readonly IParquetListLevels[] _leaves;

    private ParquetStructListChunk(ParquetColumn column, ParquetColumnChunk[] chunks)
    {
        _column = column;
        _chunks = chunks;
        _leaves = [.. chunks.Cast<IParquetListLevels>()];
        var lead = _leaves[0];
        foreach (var (leaf, index) in _leaves.Select((leaf, index) => (leaf, index)).Skip(1))
        {
            if (leaf.LevelCount != lead.LevelCount)
            {
                throw new InvalidDataException($"column '{column.Name}' has {leaf.LevelCount:N0} entries of its field '{column.ElementLeaves[index].Name}' but {lead.LevelCount:N0} of '{column.ElementLeaves[0].Name}'");
            }
        }
    }

    /// <summary>Reads the leaves of list-of-structs column <paramref name="column"/> of <paramref name="group"/>.</summary>
    public static async ValueTask<ParquetColumnChunk> ReadAsync(ParquetRowGroupReader group, ParquetColumn column, CancellationToken cancellationToken)
    {
        var chunks = new List<ParquetColumnChunk>(column.ElementLeaves.Count);
        try
        {
            foreach (var leaf in column.ElementLeaves)
            {
                chunks.Add(await ParquetListChunk.ReadAsync(group, leaf, cancellationToken).ConfigureAwait(false));
            }

            return new ParquetStructListChunk(column, [.. chunks]);
        }
        catch
        {
            foreach (var chunk in chunks)
            {
                chunk.Dispose();
            }

            throw;
        }
    }

    public override long HeldBytes => _chunks.Sum(chunk => chunk.HeldBytes);

    public override void Dispose()
    {
        foreach (var chunk in _chunks)
        {
            chunk.Dispose();
        }
    }

    public override TypedField Cell(int row)
    {
        var lead = _leaves[0];
        var first = lead.RowStart(row);
        var end = lead.RowStart(row + 1);
        var entryDefined = _column.EntryDefinedLevel;
        if (end - first == 1 && lead.Definition(first) < entryDefined)
        {
            // No entry: an empty list (map) one level below where entries are, a null one (or a null parent) further down.
            return lead.Definition(first) >= entryDefined - 1 ? TypedField.Of(EntityProperty.FromJson(_column.Property, _column.IsMap ? "{}" : "[]")) : TypedField.Null;
        }

        var values = ArrayPool<int>.Shared.Rent(_leaves.Length);
        try
        {
            for (var leaf = 0; leaf < _leaves.Length; leaf++)
            {
                values[leaf] = _leaves[leaf].FirstValue(row);
            }

            var buffer = new ArrayBufferWriter<byte>();
            using (var writer = new Utf8JsonWriter(buffer))
            {
                if ((_column.IsMap ? WriteMap(writer, first, end, values) : WriteElements(writer, first, end, values)) is { } problem)
                {
                    return TypedField.Refused(problem);
                }
            }

            return TypedField.Of(EntityProperty.FromJson(_column.Property, Encoding.UTF8.GetString(buffer.WrittenSpan)));
        }
        finally
        {
            ArrayPool<int>.Shared.Return(values);
        }
    }

    private string? WriteElements(Utf8JsonWriter writer, int first, int end, int[] values)
    {
        writer.WriteStartArray();
        for (var level = first; level < end; level++)
        {
            if (_leaves[0].Definition(level) < _column.ElementDefinedLevel)
            {
                writer.WriteNullValue();
            }
            else if (WriteObject(writer, _column.ElementFields!, level, values) is { } problem)
            {
                return problem;
            }
        }

        writer.WriteEndArray();
        return null;
    }

    /// <summary>A map's entries as one JSON object, each key as its text; a key given twice is refused rather than one value lost.</summary>
    private string? WriteMap(Utf8JsonWriter writer, int first, int end, int[] values)
    {
        var (keys, items) = (_leaves[0], _leaves[1]);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        writer.WriteStartObject();
        for (var level = first; level < end; level++)
        {
            if (keys.Definition(level) < _column.ElementLeaves[0].Leaf.MaxDefinitionLevel)
            {
                return $"column '{_column.Name}' has an entry without a key";
            }

            var key = keys.Value(values[0]++);
            if (key.Problem is { } keyProblem)
            {
                return keyProblem;
            }

            var name = TypedText.Of(key.Property);
            if (!seen.Add(name))
            {
                return $"column '{_column.Name}' holds the key '{name}' twice";
            }

            writer.WritePropertyName(name);
            if (items.Definition(level) < _column.ElementLeaves[1].Leaf.MaxDefinitionLevel)
            {
                writer.WriteNullValue();
                continue;
            }

            var value = items.Value(values[1]++);
            if (value.Problem is { } problem)
            {
                return problem;
            }

            PropertyJson.Write(writer, value.Property);
        }

        writer.WriteEndObject();
        return null;
    }

    /// <summary>Writes one element's fields at entry <paramref name="level"/>, moving each defined leaf's value cursor on; why a value cannot be written, or null.</summary>
    private string? WriteObject(Utf8JsonWriter writer, IReadOnlyList<ParquetElementField> fields, int level, int[] values)
    {
        writer.WriteStartObject();
        foreach (var field in fields)
        {
            writer.WritePropertyName(field.Name);
            if (_leaves[field.LeafIndex].Definition(level) < field.DefinedLevel)
            {
                writer.WriteNullValue();
            }
            else if (field.Fields is { } inner)
            {
                if (WriteObject(writer, inner, level, values) is { } problem)
                {
                    return problem;
                }
            }
            else
            {
                var value = _leaves[field.LeafIndex].Value(values[field.LeafIndex]++);
                if (value.Problem is { } problem)
                {
                    return problem;
                }

                PropertyJson.Write(writer, value.Property);
            }
        }

        writer.WriteEndObject();
        return null;
    }
}
