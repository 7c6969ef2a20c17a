using Loader.Worker.Csv;
using Loader.Worker.Inputs;

namespace Loader.Worker.Tests.Csv;

/// <summary>The <c>Loader:Csv</c> section's validator on its own.</summary>
public sealed class CsvOptionsValidatorTests
{
    [Fact]
    public void Default_csv_settings_pass()
    {
        Assert.True(new CsvOptionsValidator("Loader:Csv").Validate(null, new CsvOptions()).Succeeded);
    }

    [Fact]
    public void A_bad_csv_section_is_named_by_its_full_keys()
    {
        var result = new CsvOptionsValidator("Loader:Csv").Validate(null, new CsvOptions { Delimiter = "\"", MaxLinesInQuotes = 0, Culture = "xx-NOWHERE", Compression = (InputCompression)42 });

        Assert.Equal(
            [
                "Loader:Csv:Delimiter cannot be a quote or a line break.",
                "Loader:Csv:Compression '42' is not one of " + string.Join(", ", Enum.GetNames<InputCompression>()) + ".",
                "Loader:Csv:MaxLinesInQuotes must be between 1 and 1000000, was 0.",
                "Loader:Csv:Culture 'xx-NOWHERE' is not a known culture name (for example en-US, de-DE; empty for invariant).",
            ],
            result.Failures!);
    }

    [Fact]
    public void The_messages_name_the_settings_under_the_key_the_validator_is_given()
    {
        var result = new CsvOptionsValidator("Elsewhere:Csv").Validate(null, new CsvOptions { MaxRecordBytes = 100 });

        Assert.Equal(["Elsewhere:Csv:MaxRecordBytes must be between 4096 and 268435456, was 100."], result.Failures!);
    }

    [Theory]
    [InlineData("UTC")]
    [InlineData("Europe/Berlin")]
    [InlineData("W. Europe Standard Time")]
    public void A_time_zone_is_utc_or_any_iana_or_windows_id(string zone)
    {
        Assert.True(new CsvOptionsValidator("Loader:Csv").Validate(null, new CsvOptions { TimeZone = zone }).Succeeded);
    }

    [Theory]
    [InlineData("Mars/Olympus_Mons")]
    [InlineData("+02:00")]
    [InlineData("")]
    public void A_time_zone_the_machine_does_not_know_is_refused_naming_the_setting(string zone)
    {
        var result = new CsvOptionsValidator("Loader:Csv").Validate(null, new CsvOptions { TimeZone = zone });

        Assert.Equal([$"Loader:Csv:TimeZone '{zone}' is not a time zone this machine knows: UTC, an IANA id (Europe/Berlin) or a Windows id (W. Europe Standard Time)."], result.Failures!);
    }
}
