import Foundation

extension KeyedDecodingContainer {
    /// Decodes `key` when present, otherwise returns `fallback`: every scenario field is optional.
    package func value<T: Decodable>(_ key: Key, or fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }
}
