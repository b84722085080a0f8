/// The value made from the last bytes seen in one place (a column, a key), reused while the
/// same bytes come again: trace records repeat their device and widget on every line, and each
/// should be made into a String and redacted once per run, not once per line.
struct RepeatedValue<Value> {
    private var bytes: [UInt8] = []
    private var value: Value?

    /// `make(v)`, called only when `v` differs from the last bytes.
    @inline(__always)
    mutating func value(for v: UnsafeBufferPointer<UInt8>, make: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        if let value, ByteSearch.equal(v, bytes) { return value }
        let made = make(v)
        bytes = Array(v)
        value = made
        return made
    }
}
