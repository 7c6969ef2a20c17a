using Loader.Abstractions;

namespace Loader.Worker.Batching;

/// <summary>
/// The managed memory a row holds while it waits in a partial batch: the entity, its keys, its properties and their
/// strings, and its record text. An estimate from the object layout of 64-bit .NET, not a measurement: it lets the
/// buffer of partial batches be bounded in bytes, so rows of 5 columns and rows of 200 fill it alike.
/// </summary>
internal static class EntityFootprint
{
    // Object header and method table pointer; a string adds its length field and terminator, an array its length.
    private const int ObjectOverhead = 16;
    private const int StringOverhead = ObjectOverhead + 6;
    private const int ArrayOverhead = ObjectOverhead + 8;

    // LoadEntity's fields (three references, the origin, the payload size, the record text's memory) and its slot in
    // the batch: the list's reference and the row-key hash beside it.
    private const int EntityBytes = ObjectOverhead + (3 * 8) + 16 + 8 + 16 + 8 + 4;

    // The box a Guid or Json property keeps (name and value).
    private const int BoxBytes = ObjectOverhead + 8 + 16;

    /// <summary>The bytes <paramref name="entity"/> keeps alive while it waits.</summary>
    public static long Of(LoadEntity entity)
    {
        var bytes = (long)EntityBytes + StringBytes(entity.PartitionKey) + StringBytes(entity.RowKey) + ArrayOverhead
            + (16L * entity.Properties.Count) + entity.SourceRecord.Length;
        foreach (var property in entity.PropertySpan)
        {
            bytes += property.Type switch
            {
                ColumnType.String => StringBytes(property.AsString()),
                ColumnType.Json => BoxBytes + StringBytes(property.AsJson()),
                ColumnType.Guid => BoxBytes,
                ColumnType.Binary => BoxBytes + ArrayOverhead + property.AsBinary().Length,
                _ => 0,
            };
        }

        return bytes;
    }

    private static long StringBytes(string text) => (StringOverhead + (2L * text.Length) + 7) & ~7L;
}
