using Loader.Abstractions;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.CommandLine;
using Microsoft.Extensions.Configuration.EnvironmentVariables;
using Microsoft.Extensions.Configuration.Json;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Configuration;

/// <summary>
/// Refuses configuration the loader would otherwise ignore without a word, since an ignored key is a setting that did not
/// take: a key under <c>Loader:</c> that is no setting of <see cref="SettingsCatalog"/>, from any source; on the command
/// line and in a JSON file, a top-level key that is neither <c>Loader:</c> nor a <see cref="HostSections">host
/// section</see>; an unknown switch, a stray word, a switch without a value. Each is named with where it came from and
/// the nearest known name. Keys are compared ignoring case, as configuration does.
/// </summary>
/// <remarks>
/// Not the binder's <c>BinderOptions.ErrorOnUnknownConfiguration</c>: it throws at the first options class with an
/// unknown key, naming only the property names of that class and the CLR type, and it sees the merged configuration, so
/// it can say neither the full key, nor where it came from, nor what was meant; nor does it see the command line's
/// dropped arguments or keys outside <c>Loader:</c>.
/// </remarks>
internal sealed class UnknownSettingsValidator(IConfiguration configuration, CommandLineArguments commandLine) : IValidateOptions<LoaderOptions>
{
    private static readonly Known s_known = new();

    public ValidateOptionsResult Validate(string? name, LoaderOptions options)
    {
        var failures = new List<string>();
        foreach (var (typed, why) in commandLine.Dropped)
        {
            failures.Add($"'{typed}' on the command line {why}{Ending(why == CommandLineArguments.NotASwitch ? NearestSwitch(typed) : null)}");
        }

        foreach (var (key, _, typed) in commandLine.Keys)
        {
            Check(key, hasValue: true, IsSwitch(typed) ? $"'{typed.Split('=')[0]}' on the command line" : $"{key} (on the command line)", topLevel: true, failures, typed);
        }

        if (configuration is IConfigurationRoot root)
        {
            foreach (var provider in root.Providers)
            {
                CheckProvider(provider, failures);
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures.Distinct(StringComparer.Ordinal));
    }

    /// <summary>A provider's keys: under <c>Loader:</c> for every source, and at the top of a JSON file too.</summary>
    private static void CheckProvider(IConfigurationProvider provider, List<string> failures)
    {
        if (provider is CommandLineConfigurationProvider)
        {
            return; // read argument by argument above, with what was typed
        }

        var topLevel = provider is JsonConfigurationProvider;
        foreach (var (key, hasValue) in Keys(provider, topLevel ? null : LoaderOptions.SectionName))
        {
            var named = provider switch
            {
                JsonConfigurationProvider json => $"{key} (in {json.Source.FileProvider?.GetFileInfo(json.Source.Path ?? "").PhysicalPath ?? json.Source.Path})",
                EnvironmentVariablesConfigurationProvider => $"{key} (the environment variable {key.Replace(":", "__", StringComparison.Ordinal)})",
                _ => $"{key} (from {provider})",
            };
            if (key.Equals(CommandLineAliases.SettingsFileKey, StringComparison.OrdinalIgnoreCase))
            {
                failures.Add($"{named} is read from the command line only: --settings file.json.");
                continue;
            }

            Check(key, hasValue, named, topLevel, failures);
        }
    }

    /// <summary>Every key of <paramref name="provider"/> at or under <paramref name="under"/> that holds a value or has nothing under it, and whether it holds a value.</summary>
    private static IEnumerable<(string Key, bool HasValue)> Keys(IConfigurationProvider provider, string? under)
    {
        var children = provider.GetChildKeys([], null).Distinct(StringComparer.OrdinalIgnoreCase);
        foreach (var child in under is null ? children : children.Where(child => child.Equals(under, StringComparison.OrdinalIgnoreCase)))
        {
            foreach (var key in KeysFrom(provider, child))
            {
                yield return key;
            }
        }
    }

    private static IEnumerable<(string Key, bool HasValue)> KeysFrom(IConfigurationProvider provider, string path)
    {
        var children = provider.GetChildKeys([], path).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        var hasValue = provider.TryGet(path, out var value) && value is not null;
        if (children.Count == 0 || hasValue)
        {
            yield return (path, hasValue);
        }

        foreach (var child in children)
        {
            foreach (var key in KeysFrom(provider, $"{path}:{child}"))
            {
                yield return key;
            }
        }
    }

    /// <summary>Adds why <paramref name="key"/> is refused, if it is: no setting under <c>Loader:</c>, or outside it no host section.</summary>
    private static void Check(string key, bool hasValue, string named, bool topLevel, List<string> failures, string? typed = null)
    {
        if (IsLoaderKey(key))
        {
            if (s_known.UnknownPart(key) is { } unknown)
            {
                var what = unknown.Length < key.Length ? $"{named}: {unknown} is no section of settings" : $"{named} is not a setting";
                failures.Add($"{what}{Ending(NearestName.Of(unknown, s_known.Names))}");
            }
            else if (hasValue && s_known.IsSection(key))
            {
                failures.Add($"{named} is a section, not a setting: its settings are {key}:<name>.");
            }
        }
        else if (topLevel && !HostSections.Accepts(key))
        {
            // A setting's name without Loader: (--BatchSize 5, --Columns:n=Int32) is taken for a top-level key and ignored.
            var asSwitch = typed is not null && IsSwitch(typed);
            var prefixed = s_known.Canonical($"{LoaderOptions.SectionName}:{key}");
            if (asSwitch)
            {
                failures.Add($"{named} {CommandLineArguments.NotASwitch}{Ending(NearestSwitch(typed!) ?? prefixed)}");
                return;
            }

            // Named by its first part, which is what is unknown (Loaders for Loaders:Input), unless Loader: was all it lacked.
            var unknown = prefixed is null ? key.Split(':')[0] : key;
            failures.Add($"{named.Replace(key, unknown, StringComparison.Ordinal)} is neither a Loader: setting nor a host section (Logging:, OTEL_*, {ApplicationInsightsConnectionString.Variable}){Ending(prefixed ?? NearestName.Of(unknown, s_known.Names))}");
        }
    }

    private static bool IsLoaderKey(string key) =>
        key.Equals(LoaderOptions.SectionName, StringComparison.OrdinalIgnoreCase) || key.StartsWith(LoaderOptions.SectionName + ":", StringComparison.OrdinalIgnoreCase);

    /// <summary>An argument written as a switch (<c>--inptu x</c>, <c>--inptu=x</c>, <c>-x</c>) rather than as a key (<c>--Loader:Input=x</c>).</summary>
    private static bool IsSwitch(string typed) => typed.StartsWith('-') && !typed.Split('=')[0].Contains(':', StringComparison.Ordinal);

    /// <summary>The switch nearest a mistyped one, e.g. <c>--input</c> for <c>--inptu</c>.</summary>
    private static string? NearestSwitch(string typed) =>
        typed.StartsWith('-') ? NearestName.Of(typed.TrimStart('-').Split('=')[0], CommandLineAliases.SwitchMappings.Keys.Select(name => name.TrimStart('-'))) is { } name ? "--" + name : null : null;

    /// <summary>The end of a message: what was meant, when something near it is known.</summary>
    private static string Ending(string? meant) => meant is null ? "." : $"; did you mean {meant}?";

    /// <summary>The keys of the catalogue, the sections they are in, and the dictionaries whose entries name themselves.</summary>
    private sealed class Known
    {
        private readonly HashSet<string> _settings = new(StringComparer.OrdinalIgnoreCase);
        private readonly HashSet<string> _sections = new(StringComparer.OrdinalIgnoreCase);
        private readonly HashSet<string> _maps = new(StringComparer.OrdinalIgnoreCase);

        public Known()
        {
            foreach (var setting in SettingsCatalog.Keys())
            {
                var key = setting.Key.EndsWith(":<name>", StringComparison.Ordinal) ? setting.Key[..^":<name>".Length] : setting.Key;
                (key == setting.Key ? _settings : _maps).Add(key);
                for (var end = key.LastIndexOf(':'); end > 0; end = key.LastIndexOf(':', end - 1))
                {
                    _sections.Add(key[..end]);
                }
            }

            _sections.UnionWith(_maps);
            Names = [.. _settings, .. _sections];
        }

        /// <summary>A setting or dictionary entry as the catalogue spells it (<c>Loader:BatchSize</c> for <c>loader:batchsize</c>); null for no setting.</summary>
        public string? Canonical(string key)
        {
            if (_settings.TryGetValue(key, out var setting))
            {
                return setting;
            }

            var end = key.LastIndexOf(':');
            return end > 0 && _maps.TryGetValue(key[..end], out var map) ? map + key[end..] : null;
        }

        /// <summary>Whether <paramref name="key"/> is a section of settings (<c>Loader:Csv</c>) or a dictionary setting (<c>Loader:Columns</c>).</summary>
        public bool IsSection(string key) => _sections.Contains(key);

        /// <summary>Every key and section, for the nearest one to a mistyped key.</summary>
        public IReadOnlyList<string> Names { get; }

        /// <summary>Null when <paramref name="key"/> is a setting, a section, or an entry of a dictionary setting; else its first part that is none.</summary>
        public string? UnknownPart(string key)
        {
            if (_settings.Contains(key) || _sections.Contains(key))
            {
                return null;
            }

            var parent = key.LastIndexOf(':') is var end and > 0 ? key[..end] : "";
            if (_maps.Contains(parent))
            {
                return null;
            }

            // The shortest part that is neither a section nor a setting: Loader:Csvv for Loader:Csvv:Delimiter.
            for (var cut = key.IndexOf(':'); cut > 0; cut = key.IndexOf(':', cut + 1))
            {
                if (!_sections.Contains(key[..cut]))
                {
                    return key[..cut];
                }
            }

            return key;
        }
    }
}
