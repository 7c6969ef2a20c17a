namespace Loader.Abstractions;

/// <summary>
/// A property name, registered once per process, so that <see cref="EntityProperty"/> need not carry it: a
/// million rows of twenty columns then hold twenty names, not twenty million references to them. Names from input
/// headers, schemas and settings are registered with <see cref="Of"/>; the same text always gives the same instance.
/// A name only one row brings (a JSON property the first object lacks) comes from <see cref="OfRow"/>, which registers
/// it while the registry has room and otherwise gives a name of the row's own, so input whose property names never
/// repeat cannot grow the registry without bound. Names are equal by their text, registered or not.
/// </summary>
public sealed class PropertyName : IEquatable<PropertyName>
{
    /// <summary>Names <see cref="OfRow"/> registers at most.</summary>
    internal const int RowNamesRegistered = 16_384;

    private const int Unregistered = -1;

    private static readonly Dictionary<string, PropertyName> s_byText = new(StringComparer.Ordinal);
    private static readonly Lock s_registering = new();
    private static PropertyName[] s_byId = new PropertyName[64];

    private readonly TypeTag[] _tags;

    private PropertyName(string text, int id)
    {
        Text = text;
        Id = id;
        _tags = new TypeTag[Enum.GetValues<ColumnType>().Length];
    }

    public string Text { get; }

    /// <summary>Position in the registry, which a string property keeps in place of a reference to its name; negative when the name is not registered.</summary>
    internal int Id { get; }

    internal bool IsRegistered => Id != Unregistered;

    /// <summary>Names registered so far in this process.</summary>
    internal static int RegisteredCount
    {
        get
        {
            lock (s_registering)
            {
                return s_byText.Count;
            }
        }
    }

    /// <summary>The registered name of <paramref name="text"/>: for names from headers, schemas and settings.</summary>
    public static PropertyName Of(string text) => Find(text, registerBeyondRowLimit: true);

    /// <summary>
    /// The name of a property one row brings: the registered one when there is one or room for one; otherwise a name of
    /// its own, which goes when the row does.
    /// </summary>
    public static PropertyName OfRow(string text) => Find(text, registerBeyondRowLimit: false);

    private static PropertyName Find(string text, bool registerBeyondRowLimit)
    {
        ArgumentNullException.ThrowIfNull(text);
        lock (s_registering)
        {
            if (s_byText.TryGetValue(text, out var registered))
            {
                return registered;
            }

            if (!registerBeyondRowLimit && s_byText.Count >= RowNamesRegistered)
            {
                return new PropertyName(text, Unregistered);
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
    internal TypeTag Tag(ColumnType type) =>
        _tags[(int)type] ?? Interlocked.CompareExchange(ref _tags[(int)type], new TypeTag(this, type), null) ?? _tags[(int)type];

    public bool Equals(PropertyName? other) => ReferenceEquals(this, other) || (other is not null && (!IsRegistered || !other.IsRegistered) && string.Equals(Text, other.Text, StringComparison.Ordinal));

    public override bool Equals(object? obj) => Equals(obj as PropertyName);

    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(Text);

    public override string ToString() => Text;

    /// <summary>An inline value's name and type; equal by both, so an unregistered name's values equal a registered one's.</summary>
    internal sealed record TypeTag(PropertyName Name, ColumnType Type) : PropertyTag(Name, Type);
}
