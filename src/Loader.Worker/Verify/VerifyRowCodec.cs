using Loader.Abstractions;

namespace Loader.Worker.Verify;

/// <summary>
/// A <see cref="VerifyRow"/> as bytes, to wait in a sorted run (in memory, or in a temporary file when the input is larger
/// than <c>Loader:Verify:RowsInMemory</c>): its keys and place first, so the sort reads them alone, then each typed
/// property by name, type and value. The row's text as it stood in the input is left out: verify reports keys and lines.
/// </summary>
internal static class VerifyRowCodec
{
    public static byte[] Encode(VerifyRow row)
    {
        using var bytes = new MemoryStream(64 + (row.Entity.Properties.Count * 16));
        using (var writer = new BinaryWriter(bytes))
        {
            var entity = row.Entity;
            writer.Write(entity.PartitionKey);
            writer.Write(entity.RowKey);
            writer.Write(row.Sequence);
            writer.Write(entity.Origin.Record);
            writer.Write(entity.Origin.Line);
            writer.Write(row.Rejected);
            writer.Write(row.Part ?? "");
            writer.Write(row.PartLine);
            writer.Write(row.Place ?? "");
            writer.Write(entity.Properties.Count);
            foreach (var property in entity.PropertySpan)
            {
                Write(writer, property);
            }
        }

        return bytes.ToArray();
    }

    /// <summary>The keys and place of an encoded row, read without the rest.</summary>
    public static SortedRow Sortable(byte[] encoded)
    {
        using var reader = new BinaryReader(new MemoryStream(encoded, writable: false));
        return new SortedRow(reader.ReadString(), reader.ReadString(), reader.ReadInt64(), encoded);
    }

    public static VerifyRow Decode(byte[] encoded)
    {
        using var reader = new BinaryReader(new MemoryStream(encoded, writable: false));
        var partitionKey = reader.ReadString();
        var rowKey = reader.ReadString();
        var sequence = reader.ReadInt64();
        var origin = new RowOrigin(reader.ReadInt64(), reader.ReadInt64());
        var rejected = reader.ReadBoolean();
        var part = reader.ReadString();
        var partLine = reader.ReadInt64();
        var place = reader.ReadString();
        var properties = new EntityProperty[reader.ReadInt32()];
        for (var i = 0; i < properties.Length; i++)
        {
            properties[i] = Read(reader);
        }

        return new VerifyRow(new LoadEntity(partitionKey, rowKey, properties, origin), sequence, rejected, part.Length == 0 ? null : part, partLine) { Place = place.Length == 0 ? null : place };
    }

    private static void Write(BinaryWriter writer, EntityProperty property)
    {
        writer.Write(property.Name);
        writer.Write((byte)property.Type);
        switch (property.Type)
        {
            case ColumnType.String:
                writer.Write(property.AsString());
                break;
            case ColumnType.Int32:
                writer.Write(property.AsInt32());
                break;
            case ColumnType.Int64:
                writer.Write(property.AsInt64());
                break;
            case ColumnType.Double:
                writer.Write(property.AsDouble());
                break;
            case ColumnType.Boolean:
                writer.Write(property.AsBoolean());
                break;
            case ColumnType.DateTime:
                writer.Write(property.AsDateTime().Ticks);
                break;
            case ColumnType.Guid:
                writer.Write(property.AsGuid().ToByteArray());
                break;
            case ColumnType.Json:
                writer.Write(property.AsJson());
                break;
            case ColumnType.Binary:
                writer.Write7BitEncodedInt(property.AsBinary().Length);
                writer.Write(property.AsBinary().Span);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(property), property.Type, "unknown column type");
        }
    }

    private static EntityProperty Read(BinaryReader reader)
    {
        var name = PropertyName.Of(reader.ReadString());
        var type = (ColumnType)reader.ReadByte();
        return type switch
        {
            ColumnType.String => EntityProperty.FromString(name, reader.ReadString()),
            ColumnType.Int32 => EntityProperty.FromInt32(name, reader.ReadInt32()),
            ColumnType.Int64 => EntityProperty.FromInt64(name, reader.ReadInt64()),
            ColumnType.Double => EntityProperty.FromDouble(name, reader.ReadDouble()),
            ColumnType.Boolean => EntityProperty.FromBoolean(name, reader.ReadBoolean()),
            ColumnType.DateTime => EntityProperty.FromDateTime(name, new DateTime(reader.ReadInt64(), DateTimeKind.Utc)),
            ColumnType.Guid => EntityProperty.FromGuid(name, new Guid(reader.ReadBytes(16))),
            ColumnType.Json => EntityProperty.FromJson(name, reader.ReadString()),
            ColumnType.Binary => EntityProperty.FromBinary(name, reader.ReadBytes(reader.Read7BitEncodedInt())),
            _ => throw new InvalidDataException($"an encoded row holds an unknown column type {type}"),
        };
    }
}
