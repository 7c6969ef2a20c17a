namespace Loader.Worker.Records;

/// <summary>What a reader runs on each well-formed record, on its mapping threads; generic in the record so each format's record is a struct the call is compiled for.</summary>
/// <typeparam name="T">What a record becomes.</typeparam>
internal interface IRecordMapper<out T>
{
    T Map<TRecord>(in TRecord record)
        where TRecord : struct, IRecordFields;
}
