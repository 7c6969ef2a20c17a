using System.Collections.Concurrent;
using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace Loader.Worker.Configuration;

/// <summary>
/// The XML documentation the compiler writes beside each assembly (<c>GenerateDocumentationFile</c>), read back as
/// plain text: what <c>--help</c> says a setting or exit code means is the comment on its property or constant, so
/// the two cannot drift apart. Missing when the file is not beside the assembly (then every summary is null).
/// </summary>
internal static partial class XmlDocumentation
{
    private static readonly ConcurrentDictionary<Assembly, IReadOnlyDictionary<string, string>> s_files = new();

    /// <summary>The summary of a property, field or type, as one line of plain text; null when it has none.</summary>
    public static string? Summary(MemberInfo member)
    {
        var assembly = member is Type type ? type.Assembly : member.DeclaringType!.Assembly;
        return Load(assembly).GetValueOrDefault(IdOf(member));
    }

    /// <summary>Whether the documentation file of the loader's assembly was found.</summary>
    public static bool Available => Load(typeof(XmlDocumentation).Assembly).Count > 0;

    private static string IdOf(MemberInfo member) => member switch
    {
        Type type => "T:" + Name(type),
        PropertyInfo property => $"P:{Name(property.DeclaringType!)}.{property.Name}",
        FieldInfo field => $"F:{Name(field.DeclaringType!)}.{field.Name}",
        _ => throw new ArgumentException($"no documentation id for a {member.MemberType}", nameof(member)),
    };

    private static string Name(Type type) => type.FullName!.Replace('+', '.');

    private static IReadOnlyDictionary<string, string> Load(Assembly assembly) => s_files.GetOrAdd(assembly, static assembly =>
    {
        var path = Path.ChangeExtension(assembly.Location, ".xml");
        if (string.IsNullOrEmpty(assembly.Location) || !File.Exists(path))
        {
            return new Dictionary<string, string>();
        }

        return XDocument.Load(path).Descendants("member")
            .Where(member => member.Element("summary") is not null)
            .ToDictionary(member => (string)member.Attribute("name")!, member => PlainText(member.Element("summary")!), StringComparer.Ordinal);
    });

    /// <summary>The text of a documentation element: <c>&lt;c&gt;x&lt;/c&gt;</c> as <c>x</c>, a <c>see</c> as the short name it points to, whitespace as single spaces.</summary>
    private static string PlainText(XElement element)
    {
        var text = new StringBuilder();
        foreach (var node in element.Nodes())
        {
            switch (node)
            {
                case XText plain:
                    text.Append(plain.Value);
                    break;
                case XElement { Name.LocalName: "see" or "seealso" } see:
                    var target = (string?)see.Attribute("cref") ?? (string?)see.Attribute("langword") ?? (string?)see.Attribute("href") ?? "";
                    text.Append(see.Value.Length > 0 ? see.Value : target[(target.LastIndexOf('.') + 1)..]);
                    break;
                case XElement { Name.LocalName: "paramref" or "typeparamref" } reference:
                    text.Append((string?)reference.Attribute("name"));
                    break;
                case XElement { Name.LocalName: "c" } code:
                    text.Append(code.Value);
                    break;
                case XElement inner:
                    text.Append(' ').Append(PlainText(inner)).Append(' ');
                    break;
            }
        }

        // A space the markup left before a stop or comma goes; one before a name that starts with a dot (.html) stays.
        return SpaceBeforePunctuation().Replace(Whitespace().Replace(text.ToString(), " ").Trim(), "$1");
    }

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();

    [GeneratedRegex(@" ([.,])(?= |$)")]
    private static partial Regex SpaceBeforePunctuation();
}
