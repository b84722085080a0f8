/// Where a job tells a person what it is doing while it works.
///
/// A job calls `note` before each long step and `counter` for a step of many small parts; the
/// command line draws them on a terminal, and a job run from a test or a library uses `.silent`.
public protocol JobProgress: Sendable {
    /// A one-line message before a step.
    func note(_ text: String)
    /// A callback to call once per finished part of a step of `total` parts (nil: nothing is drawn).
    func counter(label: String, total: Int) -> (@Sendable () -> Void)?
    /// Ends the progress output (clears a counter line).
    func finish()
}

/// Progress that shows nothing.
public struct SilentProgress: JobProgress {
    /// Progress that says nothing.
    public init() {}
    /// Says nothing.
    public func note(_ text: String) {}
    /// No counter.
    public func counter(label: String, total: Int) -> (@Sendable () -> Void)? { nil }
    /// Does nothing.
    public func finish() {}
}

extension JobProgress where Self == SilentProgress {
    /// Progress that shows nothing.
    public static var silent: SilentProgress { SilentProgress() }
}
