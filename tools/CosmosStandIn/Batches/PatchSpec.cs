using System.Text.Json;
using System.Text.Json.Nodes;

namespace Loader.CosmosStandIn.Batches;

/// <summary>One operation of a partial document update: <c>add</c>, <c>set</c>, <c>replace</c>, <c>remove</c>, <c>incr</c> or <c>move</c>.</summary>
/// <param name="Op">The operation's name as the SDK sends it.</param>
/// <param name="Path">The target as a JSON pointer (<c>/address/city</c>, <c>/tags/0</c>, <c>/tags/-</c>).</param>
/// <param name="Segments">The pointer's segments, <c>~1</c> and <c>~0</c> unescaped.</param>
/// <param name="Value">The value to write (every operation but <c>remove</c> and <c>move</c>).</param>
/// <param name="From">The source of a <c>move</c>, as segments.</param>
public sealed record PatchOperation(string Op, string Path, IReadOnlyList<string> Segments, JsonNode? Value, IReadOnlyList<string>? From);

/// <summary>
/// A partial document update as the SDK sends it, alone (<c>PATCH …/docs/{id}</c>) or as a batch operation's body:
/// <c>{"condition":"…","operations":[{"op":"set","path":"/a","value":1},…]}</c>.
/// </summary>
public sealed record PatchSpec(IReadOnlyList<PatchOperation> Operations, string? Condition)
{
    /// <summary>The service takes at most 10 operations in one patch.</summary>
    public const int MaxOperations = 10;

    private static readonly HashSet<string> s_operations = new(StringComparer.Ordinal) { "add", "set", "replace", "remove", "incr", "move" };

    /// <summary>The spec in <paramref name="body"/>; <see cref="FormatException"/> with the service's kind of message when it is not one.</summary>
    public static PatchSpec Parse(ReadOnlyMemory<byte> body)
    {
        JsonNode? root;
        try
        {
            root = JsonNode.Parse(body.Span);
        }
        catch (JsonException exception)
        {
            throw new FormatException("Invalid patch request: the body is not JSON: " + exception.Message, exception);
        }

        // The REST API wraps the operations in an object; a bare array is accepted too.
        var (list, condition) = root switch
        {
            JsonObject spec when spec["operations"] is JsonArray inner => (inner, spec["condition"]?.GetValue<string>()),
            JsonArray bare => (bare, (string?)null),
            _ => throw new FormatException("Invalid patch request: check syntax of patch specification."),
        };

        if (list.Count == 0)
        {
            throw new FormatException("Invalid patch request: the patch specification has no operations.");
        }

        if (list.Count > MaxOperations)
        {
            throw new FormatException($"The number of patch operations can't exceed {MaxOperations}; this patch has {list.Count}.");
        }

        var operations = new List<PatchOperation>(list.Count);
        for (var i = 0; i < list.Count; i++)
        {
            if (list[i] is not JsonObject operation
                || operation["op"]?.GetValueKind() != JsonValueKind.String
                || operation["path"]?.GetValueKind() != JsonValueKind.String)
            {
                throw new FormatException($"For Operation({i}): an operation needs \"op\" and \"path\".");
            }

            var op = operation["op"]!.GetValue<string>();
            if (!s_operations.Contains(op))
            {
                throw new FormatException($"For Operation({i}): unsupported patch operation '{op}'.");
            }

            var path = operation["path"]!.GetValue<string>();
            var segments = Pointer(path, i);
            IReadOnlyList<string>? from = null;
            if (op == "move")
            {
                from = operation["from"]?.GetValueKind() == JsonValueKind.String
                    ? Pointer(operation["from"]!.GetValue<string>(), i)
                    : throw new FormatException($"For Operation({i}): a move needs \"from\".");
            }
            else if (op != "remove" && !operation.ContainsKey("value"))
            {
                throw new FormatException($"For Operation({i}): {op} needs a \"value\".");
            }

            operations.Add(new PatchOperation(op, path, segments, operation["value"]?.DeepClone(), from));
        }

        return new PatchSpec(operations, condition);
    }

    private static List<string> Pointer(string path, int index)
    {
        if (path.Length < 2 || path[0] != '/')
        {
            throw new FormatException($"For Operation({index}): '{path}' is not a valid path: it must start with / and name a property.");
        }

        return path[1..].Split('/').Select(segment => segment.Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal)).ToList();
    }
}
