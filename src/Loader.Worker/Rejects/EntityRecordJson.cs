using System.Buffers;
using System.Text;
using System.Text.Json;
using Loader.Abstractions;
using Loader.Worker.Records;

namespace Loader.Worker.Rejects;

/// <summary>
/// A mapped row as the JSON object of the properties it was to be written with, for a row of a typed input (Parquet),
/// whose text is not kept once it is mapped: what the rejects file holds when the service refuses it or a duplicate key
/// stands against it, so that, like the rows rejected before mapping, it loads again as JSON Lines. A null is left out,
/// as it was from the entity.
/// </summary>
internal static class EntityRecordJson
{
    public static string Of(LoadEntity entity)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach (var property in entity.PropertySpan)
            {
                writer.WritePropertyName(property.Name);
                PropertyJson.Write(writer, property);
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
