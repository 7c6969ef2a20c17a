using Microsoft.Azure.Cosmos.Serialization.HybridRow;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.Layouts;
using Microsoft.Azure.Cosmos.Serialization.HybridRow.Schemas;

namespace Loader.CosmosStandIn.Wire;

/// <summary>
/// The HybridRow schemas of Cosmos DB's batch protocol: one row per operation in a request, one row per result
/// in the answer. The SDK keeps its copy internal, so the stand-in declares the same protocol from its field
/// list. A row names its schema by id and is read by position, so the ids, the field order and each field's
/// type and storage must be the protocol's exactly: the SDK resolves our answers with its own layouts.
/// </summary>
public static class BatchSchema
{
    /// <summary>Schema id of a batch operation row.</summary>
    public const int OperationSchemaId = 2145473648;

    /// <summary>Schema id of a batch result row.</summary>
    public const int ResultSchemaId = 2145473649;

    static BatchSchema()
    {
        var space = new Namespace
        {
            Name = "Microsoft.Azure.Cosmos.BatchApi",
            Version = SchemaLanguageVersion.V1,
            Schemas =
            [
                Schema("BatchOperation", OperationSchemaId,
                    Field("operationType", TypeKind.Int32, StorageKind.Fixed),
                    Field("resourceType", TypeKind.Int32, StorageKind.Fixed),
                    Field("partitionKey", TypeKind.Utf8, StorageKind.Variable),
                    Field("effectivePartitionKey", TypeKind.Binary, StorageKind.Variable),
                    Field("id", TypeKind.Utf8, StorageKind.Variable),
                    Field("binaryId", TypeKind.Binary, StorageKind.Variable),
                    Field("resourceBody", TypeKind.Binary, StorageKind.Variable),
                    Field("indexingDirective", TypeKind.Utf8, StorageKind.Sparse),
                    Field("ifMatch", TypeKind.Utf8, StorageKind.Sparse),
                    Field("ifNoneMatch", TypeKind.Utf8, StorageKind.Sparse),
                    Field("timeToLiveInSeconds", TypeKind.Int32, StorageKind.Sparse),
                    Field("minimalReturnPreference", TypeKind.Boolean, StorageKind.Sparse)),
                Schema("BatchResult", ResultSchemaId,
                    Field("statusCode", TypeKind.Int32, StorageKind.Fixed),
                    Field("subStatusCode", TypeKind.Int32, StorageKind.Fixed),
                    Field("eTag", TypeKind.Utf8, StorageKind.Variable),
                    Field("resourceBody", TypeKind.Binary, StorageKind.Variable),
                    Field("retryAfterMilliseconds", TypeKind.UInt32, StorageKind.Sparse),
                    Field("requestCharge", TypeKind.Float64, StorageKind.Sparse)),
            ],
        };

        Resolver = new LayoutResolverNamespace(space);
        OperationLayout = Resolver.Resolve(new SchemaId(OperationSchemaId));
        ResultLayout = Resolver.Resolve(new SchemaId(ResultSchemaId));
    }

    public static LayoutResolverNamespace Resolver { get; }

    public static Layout OperationLayout { get; }

    public static Layout ResultLayout { get; }

    private static Schema Schema(string name, int id, params Property[] properties)
    {
        var schema = new Schema { Name = name, SchemaId = new SchemaId(id), Type = TypeKind.Schema };
        schema.Properties.AddRange(properties);
        return schema;
    }

    private static Property Field(string path, TypeKind type, StorageKind storage) =>
        new() { Path = path, PropertyType = new PrimitivePropertyType(type) { Storage = storage } };
}
