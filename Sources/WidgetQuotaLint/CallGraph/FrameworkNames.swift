/// Names that, on a receiver whose type the file does not state, are taken to be the
/// toolchain's and Apple's frameworks' methods rather than the tree's: a collection's
/// `append`, a continuation's `resume`, `UserDefaults.set(_:forKey:)`, `AVAudioEngine.prepare`.
/// A tree's own function of such a name is still found when the receiver's type is stated.
enum FrameworkNames {
    /// Accessor and observer blocks the index reads as calls: `set(newValue) {`.
    static let accessors: Set<String> = ["get", "set", "willSet", "didSet", "_read", "_modify"]

    /// `Type.shared.name`: a singleton is of its type.
    static let singletons: Set<String> = ["shared", "default", "standard", "current", "main", "instance", "sharedInstance"]

    static let methods: Set<String> = [
        // Swift collections, strings and optionals
        "append", "insert", "remove", "removeAll", "removeFirst", "removeLast", "removeValue", "contains", "first", "last",
        "firstIndex", "lastIndex", "map", "compactMap", "flatMap", "filter", "reduce", "forEach", "sorted", "sort", "reversed",
        "joined", "split", "prefix", "suffix", "dropFirst", "dropLast", "enumerated", "zip", "min", "max", "count", "index",
        "replacingOccurrences", "components", "trimmingCharacters", "lowercased", "uppercased", "hasPrefix", "hasSuffix",
        "appending", "appendingPathComponent", "merge", "merging", "union", "intersection", "subtracting", "formUnion",
        "updateValue", "mapValues", "isEmpty", "description", "hash", "encode", "decode", "makeIterator", "next",
        // Concurrency and Dispatch
        "resume", "yield", "finish", "cancel", "async", "asyncAfter", "sync", "value", "withTaskGroup", "addTask",
        "withCheckedContinuation", "withCheckedThrowingContinuation", "sleep", "wait", "signal", "lock", "unlock",
        // Foundation
        "set", "object", "string", "bool", "integer", "double", "float", "array", "dictionary", "data", "url",
        "synchronize", "register", "post", "addObserver", "removeObserver", "date", "addingTimeInterval", "timeIntervalSince",
        "write", "fileExists", "createDirectory", "removeItem", "contentsOfDirectory", "containerURL", "localizedString",
        "formatted", "format", "jsonObject",
        // Combine
        "sink", "assign", "store", "send", "receive", "eraseToAnyPublisher", "subscribe",
        // UIKit, SwiftUI, AVFoundation and other frameworks
        "prepare", "start", "stop", "play", "pause", "present", "dismiss", "layoutSubviews", "setNeedsLayout",
        "layoutIfNeeded", "addSubview", "removeFromSuperview", "reloadData", "endRefreshing", "beginRefreshing",
        "setTaskCompleted", "submit", "setValue", "perform", "open", "close", "invalidate", "schedule", "callAsFunction",
    ]
}
