using Azure.Data.Tables;
using Loader.Abstractions;

namespace Loader.Worker.Backends.Tables;

/// <summary>An entity read back from a partition, compared with a row by <see cref="TableEntityComparison"/>.</summary>
internal sealed class TableStoredEntity(TableEntity entity) : IStoredEntity
{
    public string RowKey => entity.RowKey;

    public PropertyDifference? Compare(LoadEntity row, bool othersAllowed) => TableEntityComparison.Differences(row, entity, othersAllowed).First;
}
