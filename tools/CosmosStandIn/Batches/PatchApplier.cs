using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Loader.CosmosStandIn.Batches;

/// <summary>
/// Applies a <see cref="PatchSpec"/> to an item by the service's rules for partial document update: the parent of
/// every target must exist (nothing is created recursively); <c>add</c> adds or replaces a property and inserts
/// into an array at an index or at <c>-</c>; <c>set</c> is <c>add</c> but overwrites an array element;
/// <c>replace</c> and <c>remove</c> need the target to exist; <c>incr</c> adds to a number, creating it when absent;
/// <c>move</c> needs its source. An operation that breaks a rule fails the whole patch (<see cref="FormatException"/>,
/// answered 400). Cosmos DB's <c>set</c> and <c>incr</c> are not JSON Patch (RFC 6902) operations, so no JSON Patch
/// library applies them.
/// </summary>
public static class PatchApplier
{
    public static JsonObject Apply(JsonObject item, PatchSpec spec)
    {
        ArgumentNullException.ThrowIfNull(item);
        ArgumentNullException.ThrowIfNull(spec);
        var patched = (JsonObject)item.DeepClone();
        for (var i = 0; i < spec.Operations.Count; i++)
        {
            var operation = spec.Operations[i];
            try
            {
                ApplyOne(patched, operation);
            }
            catch (FormatException exception)
            {
                throw new FormatException($"For Operation({i}): {exception.Message}", exception);
            }
        }

        return patched;
    }

    private static void ApplyOne(JsonObject item, PatchOperation operation)
    {
        switch (operation.Op)
        {
            case "add":
                Write(item, operation.Segments, operation.Value, insertIntoArray: true);
                break;
            case "set":
                Write(item, operation.Segments, operation.Value, insertIntoArray: false);
                break;
            case "replace":
                _ = Target(item, operation.Segments, "replaced");
                Write(item, operation.Segments, operation.Value, insertIntoArray: false);
                break;
            case "remove":
                Remove(item, operation.Segments);
                break;
            case "incr":
                Increment(item, operation.Segments, operation.Value);
                break;
            case "move":
                var value = Target(item, operation.From!, "moved");
                Remove(item, operation.From!);
                Write(item, operation.Segments, value, insertIntoArray: true);
                break;
            default:
                throw new FormatException($"unsupported patch operation '{operation.Op}'.");
        }
    }

    private static void Write(JsonObject item, IReadOnlyList<string> segments, JsonNode? value, bool insertIntoArray)
    {
        var parent = Parent(item, segments);
        var last = segments[^1];
        switch (parent)
        {
            case JsonObject obj:
                obj[last] = value?.DeepClone();
                break;
            case JsonArray array when insertIntoArray && last == "-":
                array.Add(value?.DeepClone());
                break;
            case JsonArray array:
                var index = Index(last, array.Count + (insertIntoArray ? 1 : 0));
                if (insertIntoArray)
                {
                    array.Insert(index, value?.DeepClone());
                }
                else
                {
                    array[index] = value?.DeepClone();
                }

                break;
            default:
                throw new FormatException("the parent of the target is neither an object nor an array.");
        }
    }

    private static void Remove(JsonObject item, IReadOnlyList<string> segments)
    {
        var parent = Parent(item, segments);
        var last = segments[^1];
        switch (parent)
        {
            case JsonObject obj when obj.ContainsKey(last):
                obj.Remove(last);
                break;
            case JsonArray array:
                array.RemoveAt(Index(last, array.Count));
                break;
            default:
                throw new FormatException("Node to be removed is absent.");
        }
    }

    private static void Increment(JsonObject item, IReadOnlyList<string> segments, JsonNode? by)
    {
        if (by is not JsonValue step || step.GetValueKind() != JsonValueKind.Number)
        {
            throw new FormatException("Increment value must be a number.");
        }

        var current = Parent(item, segments) is JsonObject obj && obj.TryGetPropertyValue(segments[^1], out var found) ? found : null;
        if (current is not null && current.GetValueKind() != JsonValueKind.Number)
        {
            throw new FormatException("Cannot increment a value that is not a number.");
        }

        // Whole numbers stay whole, as the service keeps an integer an integer.
        JsonNode sum = current is null ? step.DeepClone()
            : current.AsValue().TryGetValue<long>(out var a) && step.TryGetValue<long>(out var b) ? JsonValue.Create(a + b)
            : JsonValue.Create(current.GetValue<double>() + step.GetValue<double>());
        Write(item, segments, sum, insertIntoArray: false);
    }

    /// <summary>The node at <paramref name="segments"/>; <see cref="FormatException"/> when it is absent.</summary>
    private static JsonNode? Target(JsonObject item, IReadOnlyList<string> segments, string verb)
    {
        var parent = Parent(item, segments);
        var last = segments[^1];
        return parent switch
        {
            JsonObject obj when obj.TryGetPropertyValue(last, out var value) => value,
            JsonArray array => array[Index(last, array.Count)],
            _ => throw new FormatException($"Node to be {verb} is absent."),
        };
    }

    /// <summary>The object or array that holds the target; it must exist, as patch creates no path recursively.</summary>
    private static JsonNode Parent(JsonObject item, IReadOnlyList<string> segments)
    {
        JsonNode? node = item;
        for (var i = 0; i < segments.Count - 1; i++)
        {
            node = node switch
            {
                JsonObject obj when obj.TryGetPropertyValue(segments[i], out var child) => child,
                JsonArray array => array[Index(segments[i], array.Count)],
                _ => null,
            };
            if (node is null)
            {
                break;
            }
        }

        return node ?? throw new FormatException("Add Operation can only create a child object of an existing node (array or object) and can't create path recursively.");
    }

    private static int Index(string segment, int limit) =>
        int.TryParse(segment, NumberStyles.None, CultureInfo.InvariantCulture, out var index) && index < limit
            ? index
            : throw new FormatException("Index to operate on is out of array bounds.");
}
