namespace Loader.Abstractions;

/// <summary>
/// One typed property of an entity. <see cref="Value"/> holds the CLR value matching <see cref="Type"/>:
/// <see cref="string"/>, <see cref="int"/>, <see cref="long"/>, <see cref="double"/>, <see cref="bool"/>,
/// <see cref="System.DateTime"/> (UTC) or <see cref="System.Guid"/>.
/// </summary>
public readonly record struct EntityProperty(string Name, ColumnType Type, object Value);
