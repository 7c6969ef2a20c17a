namespace Loader.Abstractions;

/// <summary>
/// A property name, registered once per process, so that <see cref="EntityProperty"/> need not carry it: a
/// million rows of twenty columns then hold twenty names, not twenty million references to them. Names come
/// from input headers and settings, so the registry stays as small as the set of column names a process sees.
/// Get one with <see cref="Of"/>; the same text always gives the same instance.
/// </summary>
public sealed class PropertyName
{
    private static readonly Dictionary<string, PropertyName> s_byText = new(StringComparer.Ordinal);
    private static readonly Lock s_registering = new();
    private static PropertyName[] s_byId = new PropertyName[64];

    private readonly TypeTag[] _tags;

    private PropertyName(string text, int id)
    {
        Text = text;
        Id = id;
        _tags = [.. Enum.GetValues<ColumnType>().Select(type => new TypeTag(this, type))];
    }

    public string Text { get; }

    /// <summary>Position in the registry; a string property keeps it in place of a reference to its name.</summary>
    internal int Id { get; }

    public static PropertyName Of(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        lock (s_registering)
        {
            if (s_byText.TryGetValue(text, out var registered))
            {
                return registered;
            }

            var name = new PropertyName(text, s_byText.Count);
            if (name.Id == s_byId.Length)
            {
                var grown = new PropertyName[s_byId.Length * 2];
                s_byId.CopyTo(grown, 0);
                Volatile.Write(ref s_byId, grown);
            }

            s_byId[name.Id] = name;
            s_byText.Add(text, name);
            return name;
        }
    }

    /// <summary>The name registered under <paramref name="id"/>; lock-free, as ids only ever point into a filled slot.</summary>
    internal static PropertyName ById(int id) => Volatile.Read(ref s_byId)[id];

    /// <summary>Marks an inline value as of this name and type; one shared instance per pair.</summary>
    internal TypeTag Tag(ColumnType type) => _tags[(int)type];

    public override string ToString() => Text;

    internal sealed class TypeTag(PropertyName name, ColumnType type)
    {
        public PropertyName Name { get; } = name;

        public ColumnType Type { get; } = type;
    }
}
