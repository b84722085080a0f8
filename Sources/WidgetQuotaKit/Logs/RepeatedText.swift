/// The redacted String of the last bytes seen in one place (a column, a key), reused while the
/// same bytes come again: trace records repeat their device and widget on every line.
struct RepeatedText {
    private var bytes: [UInt8] = []
    private var text: String?

    /// `redactor.redact` of `v` as text, made only when `v` differs from the last bytes.
    mutating func text(for v: UnsafeBufferPointer<UInt8>, redactor: SecretRedactor) -> String {
        if let text, ByteSearch.equal(v, bytes) { return text }
        let made = redactor.redact(ByteSearch.string(v))
        bytes = Array(v)
        text = made
        return made
    }
}
