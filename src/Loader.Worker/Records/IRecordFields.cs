using Loader.Abstractions;

namespace Loader.Worker.Records;

/// <summary>
/// The record a reader stands on, as the mapper reads it, whatever its format: fields by column position (the reader's
/// <see cref="IRecordReader.Columns"/>), each as UTF-8; an empty field has no value. Valid only during the call it is
/// given to. Readers give it as a struct, so the mapper is compiled for each format without a call through an interface.
/// </summary>
internal interface IRecordFields
{
    /// <summary>Where the record came from: its record number (the checkpoint's unit) and the line it starts on.</summary>
    RowOrigin Origin { get; }

    /// <summary>The record's bytes as they stand in the input (decompressed, without its line break): the rejects file's text and the fingerprint's digest.</summary>
    ReadOnlySpan<byte> Raw { get; }

    /// <summary>Fields of the record: the columns, then any <see cref="ExtraCount"/> fields the columns do not name.</summary>
    int FieldCount { get; }

    /// <summary>Fields this record has beyond the columns (a JSON property the first object lacked), at positions from <see cref="FieldCount"/> on.</summary>
    int ExtraCount { get; }

    /// <summary>The name of a field beyond the columns (<paramref name="field"/> at or past <see cref="FieldCount"/>).</summary>
    string ExtraName(int field);

    /// <summary>The field's value as UTF-8 text (a JSON string unescaped; a number, boolean or nested value as written); empty when it has none.</summary>
    ReadOnlySpan<byte> GetSpan(int field);

    /// <summary>The field's value as a string.</summary>
    string GetString(int field);

    /// <summary>What the field holds.</summary>
    FieldKind KindOf(int field);

    /// <summary>
    /// Whether the record's fields come typed from its format (Parquet): the mapper takes each by <see cref="GetTyped"/>
    /// instead of parsing its text, and <see cref="Raw"/> (the record as text) is made only for a reject.
    /// </summary>
    bool IsTyped => false;

    /// <summary>A typed record's field (<see cref="IsTyped"/>): its value, a null, or why it cannot be written.</summary>
    TypedField GetTyped(int field) => throw new NotSupportedException("the record's fields are text");

    /// <summary>
    /// Writes a typed record's field (<see cref="IsTyped"/>) into <paramref name="destination"/> as the text a key is
    /// made of (<see cref="TypedText.Of"/>): the characters written, 0 when it has no value, or -1 when it does not fit.
    /// Keys are made of characters: a typed value is formatted as characters at once, where its UTF-8
    /// (<see cref="GetSpan"/>) would be decoded again.
    /// </summary>
    int WriteText(int field, Span<char> destination) => throw new NotSupportedException("the record's fields are text: read them as UTF-8");

    /// <summary>The record's digest for the input's fingerprint: of its <see cref="Raw"/> bytes, or of a typed record's values.</summary>
    ulong Digest => RecordSequenceHash.Digest(Raw);
}
