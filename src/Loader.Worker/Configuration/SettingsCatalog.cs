using System.Collections;
using System.Globalization;
using System.Reflection;
using Loader.Abstractions;
using Loader.Worker.Security;

namespace Loader.Worker.Configuration;

/// <summary>
/// Every setting of <see cref="LoaderOptions"/>, found by walking its properties: key, short switch, default, type,
/// meaning (the property's XML documentation) and the values it accepts (its <see cref="SettingRange"/>, choices, or
/// <see cref="AcceptsAttribute"/>). <c>--help</c> and docs/configuration.md print it, the validators hold settings to the
/// same ranges, and the report lists the values a load ran with, so a setting added to the options appears in all of them
/// without anyone remembering to.
/// </summary>
internal static class SettingsCatalog
{
    /// <summary>What a secret setting's value is shown as.</summary>
    public const string Hidden = "(set, not shown)";

    /// <summary>
    /// <c>--settings file.json</c>: not a setting of the load but where more settings come from (<see cref="CommandLineAliases.SettingsFileKey"/>).
    /// </summary>
    public static SettingDescription SettingsFile { get; } = new(
        CommandLineAliases.SettingsFileKey,
        "--settings",
        typeof(string),
        "",
        "A JSON file of settings, the shape of appsettings.json ({\"Loader\": {...}}).",
        IsSecret: false)
    {
        Accepts = "a path of a JSON file; optional",
    };

    /// <summary>Every setting, in declaration order; a dictionary of settings (<c>Loader:Columns</c>) is one entry with <c>&lt;name&gt;</c> in its key.</summary>
    public static IReadOnlyList<SettingDescription> Describe()
    {
        var defaults = new LoaderOptions();
        var switches = CommandLineAliases.SwitchMappings.ToDictionary(pair => pair.Value, pair => pair.Key, StringComparer.OrdinalIgnoreCase);
        var settings = new List<SettingDescription>();
        foreach (var (key, property, value) in Leaves(LoaderOptions.SectionName, defaults))
        {
            var isMap = IsMap(property.PropertyType);
            var valueType = isMap ? property.PropertyType.GetGenericArguments()[1] : Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
            settings.Add(new SettingDescription(
                isMap ? key + ":<name>" : key,
                switches.GetValueOrDefault(key),
                valueType,
                isMap ? "" : Format(value),
                Meaning(property, valueType),
                IsSecret(property))
            {
                Range = SettingRange.Of(property),
                Accepts = Accepts(property, valueType, isMap),
            });
        }

        return settings;
    }

    /// <summary>
    /// Every setting's key (as in <see cref="Describe"/>, <see cref="SettingsFile"/> last) and whether its value is secret:
    /// what a start needs to find unknown keys and the values to redact, without the meanings, which <see cref="Describe"/>
    /// reads from the XML documentation (close to a megabyte) and only <c>--help</c> and the configuration page print.
    /// </summary>
    public static IReadOnlyList<SettingKey> Keys() =>
    [
        .. Leaves(LoaderOptions.SectionName, new LoaderOptions())
            .Select(leaf => new SettingKey(IsMap(leaf.Property.PropertyType) ? leaf.Key + ":<name>" : leaf.Key, IsSecret(leaf.Property))),
        new SettingKey(SettingsFile.Key, SettingsFile.IsSecret),
    ];

    /// <summary>The values of <paramref name="options"/>, one per setting (one per entry of a dictionary), secrets hidden, and the rest through <see cref="Redaction.Rule"/> (a URL's password and query values removed).</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Values(LoaderOptions options)
    {
        var values = new List<KeyValuePair<string, string>>();
        foreach (var (key, property, value) in Leaves(LoaderOptions.SectionName, options))
        {
            if (value is IDictionary map)
            {
                foreach (DictionaryEntry entry in map)
                {
                    values.Add(new($"{key}:{entry.Key}", Format(entry.Value)));
                }
            }
            else
            {
                var text = Format(value);
                values.Add(new(key, IsSecret(property) && text.Length > 0 ? Hidden : Redaction.Rule.Redact(text)));
            }
        }

        return values;
    }

    /// <summary>
    /// Secrets by name: a connection string, account or API key, secret, password or token. A new setting named so is hidden
    /// without anyone marking it; URLs, which may carry a shared access signature or a password, lose those instead.
    /// </summary>
    private static bool IsSecret(PropertyInfo property) =>
        s_secretNameEndings.Any(word => property.Name.EndsWith(word, StringComparison.Ordinal));

    private static readonly string[] s_secretNameEndings = ["ConnectionString", "AccountKey", "ApiKey", "Secret", "Password", "Token"];

    private static IEnumerable<(string Key, PropertyInfo Property, object? Value)> Leaves(string prefix, object options)
    {
        foreach (var property in options.GetType().GetProperties(BindingFlags.Public | BindingFlags.Instance))
        {
            if (property.SetMethod is not { IsPublic: true } || property.GetIndexParameters().Length > 0)
            {
                continue; // computed (EffectiveConnectionString, PartitionKeyProperty): not a setting
            }

            var key = $"{prefix}:{property.Name}";
            var value = property.GetValue(options);
            if (IsSection(property.PropertyType))
            {
                foreach (var leaf in Leaves(key, value ?? Activator.CreateInstance(property.PropertyType)!))
                {
                    yield return leaf;
                }
            }
            else
            {
                yield return (key, property, value);
            }
        }
    }

    /// <summary>A nested options class (<c>Loader:Csv</c>, <c>Loader:Tables</c>...), as opposed to a value.</summary>
    private static bool IsSection(Type type) =>
        type.IsClass && type != typeof(string) && !IsMap(type) && type.Namespace?.StartsWith("Loader.", StringComparison.Ordinal) == true;

    private static bool IsMap(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(Dictionary<,>);

    private static string Meaning(PropertyInfo property, Type valueType)
    {
        var summary = XmlDocumentation.Summary(property) ?? "";
        if (!valueType.IsEnum)
        {
            return summary;
        }

        // A choice: its values, each with its own comment where it has one.
        var choices = valueType.GetFields(BindingFlags.Public | BindingFlags.Static)
            .Select(field => XmlDocumentation.Summary(field) is { } meaning ? $"{field.Name} ({TrimPeriod(meaning)})" : field.Name);
        return $"{(summary.Length > 0 ? summary + " " : "")}One of: {string.Join("; ", choices)}.".Trim();
    }

    /// <summary>
    /// The values a setting takes, in words: a number's or duration's range, a choice's names, <c>true or false</c>, or what
    /// a text setting's <see cref="AcceptsAttribute"/> says; empty when the code gives it no bound.
    /// </summary>
    private static string Accepts(PropertyInfo property, Type valueType, bool isMap) => isMap
        ? $"a column of the input's header, typed one of {string.Join(", ", Enum.GetNames(valueType))}"
        : SettingRange.Of(property) is { } range ? range.Text
            + (Nullable.GetUnderlyingType(property.PropertyType) is not null ? "; optional" : "")
            + (property.GetCustomAttribute<AcceptsAttribute>() is { } more ? "; " + more.What : "")
        : valueType.IsEnum ? $"one of {string.Join(", ", Enum.GetNames(valueType))}"
        : valueType == typeof(bool) ? "true or false"
        : property.GetCustomAttribute<AcceptsAttribute>()?.What ?? "";

    private static string TrimPeriod(string text) => text.EndsWith('.') ? text[..^1] : text;

    /// <summary>A value as a setting is written: invariant numbers, <c>true</c>/<c>false</c>, times as <c>hh:mm:ss</c>, empty for none.</summary>
    public static string Format(object? value) => value switch
    {
        null => "",
        bool flag => flag ? "true" : "false",
        TimeSpan time => time.ToString("c", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        IDictionary => "",
        _ => value.ToString() ?? "",
    };
}

/// <summary>A setting's configuration key (<c>&lt;name&gt;</c> in it for a dictionary's entries) and whether its value is secret.</summary>
internal sealed record SettingKey(string Key, bool IsSecret);

/// <summary>One setting: its configuration key, short switch (or null), value type, default (empty for none), meaning, and whether its value is secret.</summary>
internal sealed record SettingDescription(string Key, string? Switch, Type Type, string Default, string Meaning, bool IsSecret)
{
    /// <summary>The range of a number or duration, which its section's validator holds it to; null for other settings.</summary>
    public SettingRange? Range { get; init; }

    /// <summary>The values it takes, in words (see <see cref="SettingsCatalog"/>); empty when the code gives it no bound.</summary>
    public string Accepts { get; init; } = "";

    /// <summary>Whether the catalogue says what values it takes: every setting must, or the settings fuzz test fails naming it.</summary>
    public bool IsBounded => Accepts.Length > 0;
}
