/// Where a line stops being valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF), checked eight ASCII bytes at a time, since almost every log line is ASCII.
enum UTF8Validation {
    /// The 1-based column of the first byte of the first invalid sequence, or nil.
    static func firstInvalidColumn(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = b.baseAddress else { return nil }
        let n = b.count
        var i = 0
        while i < n {
            // Eight ASCII bytes at once.
            if i + 8 <= n {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return i + 1
            }
            guard i + length <= n, b[i + 1] >= low, b[i + 1] <= high else { return i + 1 }
            for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i + 1 }
            i += length
        }
        return nil
    }
}
