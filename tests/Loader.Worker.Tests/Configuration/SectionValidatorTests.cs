using Loader.Abstractions;
using Loader.Worker.Configuration;

namespace Loader.Worker.Tests.Configuration;

/// <summary>The retry section's validator on its own, and the root gathering what every section's validator found.</summary>
public sealed class SectionValidatorTests
{
    [Fact]
    public void Default_retry_settings_pass()
    {
        Assert.True(new RetryOptionsValidator("Loader:Retry").Validate(null, new RetryOptions()).Succeeded);
    }

    [Fact]
    public void A_bad_retry_section_is_named_by_its_full_keys()
    {
        var result = new RetryOptionsValidator("Loader:Retry").Validate(null, new RetryOptions { MaxAttempts = -1, AttemptTimeout = TimeSpan.Zero });

        Assert.Equal(["Loader:Retry:MaxAttempts must be between 0 and 1000, was -1.", "Loader:Retry:AttemptTimeout must be between 00:00:00.01 and 1.00:00:00, was 00:00:00."], result.Failures!);
    }

    [Fact]
    public void The_root_lists_what_every_section_found_in_one_result()
    {
        var options = new LoaderOptions { Input = "in.csv", PartitionKey = "{pk}", RowKey = "{rk}", Retry = new RetryOptions { MaxAttempts = 5000 } };
        options.Csv.MaxRecordBytes = 1;
        options.Tables.Table = "1bad";

        var result = new LoaderOptionsValidator().Validate(null, options);

        Assert.True(result.Failed);
        Assert.Contains("Loader:Csv:MaxRecordBytes must be between 4096 and 268435456, was 1.", result.Failures!);
        Assert.Contains("Loader:Retry:MaxAttempts must be between 0 and 1000, was 5000.", result.Failures!);
        Assert.Contains(result.Failures!, failure => failure.StartsWith("Loader:Tables:Table '1bad' is not a valid table name", StringComparison.Ordinal));
    }

    [Fact]
    public void Validation_reads_no_file_system_an_input_path_that_is_not_there_passes_until_it_is_opened()
    {
        var options = new LoaderOptions { Input = Path.Combine(Path.GetTempPath(), $"no-such-{Guid.NewGuid():N}.csv"), PartitionKey = "{pk}", RowKey = "{rk}" };
        options.Tables.Table = "flights";
        options.Tables.ConnectionString = "UseDevelopmentStorage=true";

        Assert.True(new LoaderOptionsValidator().Validate(null, options).Succeeded);
    }

    [Fact]
    public void Only_the_chosen_backend_s_section_is_checked()
    {
        var tables = new LoaderOptions { Input = "in.csv", PartitionKey = "{pk}", RowKey = "{rk}" };
        tables.Tables.Table = "flights";
        tables.Cosmos.PartitionKeyPath = "pk";
        var cosmos = new LoaderOptions { Input = "in.csv", PartitionKey = "{pk}", RowKey = "{rk}", Backend = BackendKind.Cosmos };
        cosmos.Cosmos.Endpoint = "https://account.documents.azure.com:443/";
        cosmos.Cosmos.Container = "flights";

        Assert.True(new LoaderOptionsValidator().Validate(null, tables).Succeeded);
        Assert.Equal(["Loader:Cosmos:Database is required: the database name."], new LoaderOptionsValidator().Validate(null, cosmos).Failures!);
    }

    [Fact]
    public void A_value_out_of_range_is_refused_in_a_section_the_load_does_not_use()
    {
        var tables = new LoaderOptions { Input = "in.csv", PartitionKey = "{pk}", RowKey = "{rk}" };
        tables.Tables.Table = "flights";
        tables.Cosmos.Throughput = 5;
        tables.Shards.Count = 0;

        Assert.Equal(
            ["Loader:Cosmos:Throughput must be at least 400, was 5.", "Loader:Shards:Count must be between 1 and 1000, was 0."],
            new LoaderOptionsValidator().Validate(null, tables).Failures!);
    }

    [Fact]
    public void Status_checks_the_shards_section_and_nothing_a_load_would_need()
    {
        var status = new LoaderOptions { Command = LoaderCommand.Status, BatchSize = 0 };
        status.Shards.State = "https://account.blob.core.windows.net/loader-state/flights/";
        status.Shards.Count = 0;

        var failures = new LoaderOptionsValidator().Validate(null, status).Failures!;

        Assert.Equal(
            [
                "Loader:Shards:Queue is required by status: the queue of shards, e.g. https://<account>.queue.core.windows.net/loader-shards.",
                "Loader:Shards:Count must be between 1 and 1000, was 0.",
            ],
            failures);
    }


    private static LoaderOptions CosmosLoad(string partitionKey, string? paths, string rowKey = "{rk}")
    {
        var options = new LoaderOptions { Input = "in.csv", PartitionKey = partitionKey, RowKey = rowKey, Backend = BackendKind.Cosmos };
        options.Cosmos.Endpoint = "https://account.documents.azure.com:443/";
        options.Cosmos.Database = "loads";
        options.Cosmos.Container = "flights";
        options.Cosmos.PartitionKeyPaths = paths;
        return options;
    }

    [Fact]
    public void A_hierarchical_key_takes_one_template_per_path()
    {
        Assert.True(new LoaderOptionsValidator().Validate(null, CosmosLoad("{origin}, {dest}", "/origin,/dest")).Succeeded);
        Assert.True(new LoaderOptionsValidator().Validate(null, CosmosLoad("{tenant},{user},{rk}", "/tenantId,/userId,/id")).Succeeded);
    }

    [Fact]
    public void A_hierarchical_key_with_another_number_of_templates_than_paths_is_refused_naming_both()
    {
        Assert.Equal(
            ["Loader:PartitionKey '{origin}' has 1 template(s), but Loader:Cosmos:PartitionKeyPaths names 2 paths (/origin, /dest): give one template per path, separated by commas, e.g. {origin},{dest}."],
            new LoaderOptionsValidator().Validate(null, CosmosLoad("{origin}", "/origin,/dest")).Failures!);
    }

    [Fact]
    public void Each_level_s_template_is_checked_and_named_by_its_level()
    {
        Assert.Equal(
            ["Loader:PartitionKey (level 2, /dest) 'dest' names no column: every row would get the same key. Use {column} placeholders."],
            new LoaderOptionsValidator().Validate(null, CosmosLoad("{origin},dest", "/origin,/dest")).Failures!);
    }

    [Fact]
    public void A_level_at_the_id_path_must_be_the_row_key()
    {
        Assert.Equal(
            ["Loader:PartitionKey (level 2, /id) '{flight}' fills the path /id, which is the item's id: it must be Loader:RowKey's template '{rk}'."],
            new LoaderOptionsValidator().Validate(null, CosmosLoad("{origin},{flight}", "/origin,/id")).Failures!);
    }

    [Fact]
    public void A_json_column_is_refused_for_table_storage_and_taken_for_cosmos()
    {
        var tables = new LoaderOptions { Input = "in.csv", PartitionKey = "{pk}", RowKey = "{rk}", Columns = new(StringComparer.Ordinal) { ["doc"] = ColumnType.Json } };
        tables.Tables.Table = "flights";
        tables.Tables.ConnectionString = "UseDevelopmentStorage=true";
        var cosmos = CosmosLoad("{pk}", null);
        cosmos.Columns["doc"] = ColumnType.Json;

        Assert.Equal(
            ["Loader:Columns:doc is Json, which Table Storage cannot store: its entities are flat, with no object or array values (Json columns are for Loader:Backend=Cosmos)."],
            new LoaderOptionsValidator().Validate(null, tables).Failures!);
        Assert.True(new LoaderOptionsValidator().Validate(null, cosmos).Succeeded);
    }
}
