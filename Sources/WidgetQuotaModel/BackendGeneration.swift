import Foundation
import WidgetQuotaSupport

/// A design whose paid API call runs on the owner's backend: it generates each content key's
/// answer (`SharedContent`), caches it, and every device fetches that answer from the backend
/// or a CDN. Paid requests then scale with keys × regenerations, not with users; the devices'
/// fetches are the backend's load.
public struct BackendGeneration: Codable, Sendable, Equatable {
    /// When the backend calls the paid API for a key.
    public enum Regeneration: Sendable, Equatable {
        /// On each data change of the key (a goal, a new forecast).
        case onChange
        /// On a schedule, every key every so many minutes (a cron job at :00, :30, ...).
        case every(minutes: Double)
        /// On the first device request after the key's cached answer is older than `cacheTTLMinutes`.
        case afterTTL
    }

    /// When the backend calls the paid API for a key.
    public var regenerate: Regeneration = .afterTTL
    /// How long the backend (or its CDN) serves one generated answer: a device's content can be
    /// this old when it fetches it (and the `afterTTL` regeneration's lifetime).
    public var cacheTTLMinutes: Double = 15
    /// Paid API requests per regeneration of one key.
    public var requestsPerGeneration: Int = 1
    /// USD per million device requests the backend or CDN serves (nil: not priced).
    public var pricePerMillionRequests: Double?
    /// For `every(M)`: the keys spread over the M minutes, round-robin by popularity, so that
    /// each minute regenerates about 1/M of them (true, the default); false: every key in the
    /// same minute, as a job that loops over them at once does.
    public var staggered: Bool = true
    /// For `every(M)`: the schedule polls each key only in its open hours (`calendar.hours`, or
    /// its `content.groups` group's), as a job that polls a market while it trades; false:
    /// around the clock.
    public var onlyWhenOpen: Bool = false
    /// For `every(M)`: the most popular keys on a faster schedule of their own (the top symbols
    /// every minute, the tail every M); nil: every key every M minutes.
    public var popular: PopularSchedule?

    /// The most popular keys, regenerated more often than the rest.
    public struct PopularSchedule: Codable, Sendable, Equatable {
        /// How many of the most popular keys (1: the most popular only).
        public var keys: Int
        /// Their period in minutes, shorter than the schedule's.
        public var everyMinutes: Double

        /// The top `keys` keys every `everyMinutes` minutes.
        public init(keys: Int, everyMinutes: Double) {
            self.keys = keys
            self.everyMinutes = everyMinutes
        }
    }

    /// A backend that regenerates each key `regenerate`, its answers served for `cacheTTLMinutes`.
    public init(regenerate: Regeneration = .afterTTL, cacheTTLMinutes: Double = 15) {
        self.regenerate = regenerate
        self.cacheTTLMinutes = cacheTTLMinutes
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case regenerate, cacheTTLMinutes, requestsPerGeneration, pricePerMillionRequests, staggered, onlyWhenOpen, popular
    }

    public init(from decoder: Decoder) throws {
        let d = BackendGeneration()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        regenerate = try c.value(.regenerate, or: d.regenerate)
        cacheTTLMinutes = try c.value(.cacheTTLMinutes, or: d.cacheTTLMinutes)
        requestsPerGeneration = try c.value(.requestsPerGeneration, or: d.requestsPerGeneration)
        pricePerMillionRequests = try c.decodeIfPresent(Double.self, forKey: .pricePerMillionRequests)
        staggered = try c.value(.staggered, or: d.staggered)
        onlyWhenOpen = try c.value(.onlyWhenOpen, or: d.onlyWhenOpen)
        popular = try c.decodeIfPresent(PopularSchedule.self, forKey: .popular)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(regenerate, forKey: .regenerate)
        try c.encode(cacheTTLMinutes, forKey: .cacheTTLMinutes)
        try c.encode(requestsPerGeneration, forKey: .requestsPerGeneration)
        try c.encode(pricePerMillionRequests, forKey: .pricePerMillionRequests)
        // Only a schedule has keys to stagger.
        if case .every = regenerate {
            try c.encode(staggered, forKey: .staggered)
            if onlyWhenOpen { try c.encode(onlyWhenOpen, forKey: .onlyWhenOpen) }
            if let popular { try c.encode(popular, forKey: .popular) }
        }
    }

    /// The schedule in words: `every(5)`, or `every(5), the top 100 keys every(1)`.
    public var scheduleSummary: String {
        guard case .every = regenerate, let popular else { return regenerate.summary }
        return regenerate.summary + ", the top \(popular.keys) keys every(\(NumberText.plain(popular.everyMinutes)))"
    }

    /// The oldest the answer of key `rank` (0: the most popular) can be when a device fetches it,
    /// in minutes.
    public func generationLagMinutes(keyRank rank: Int) -> Double {
        if case .every = regenerate, let popular, rank < popular.keys { return popular.everyMinutes }
        return generationLagMinutes
    }

    /// The oldest a device's freshly fetched content can be, in minutes: the backend's cache
    /// lifetime, or the schedule's period.
    public var generationLagMinutes: Double {
        switch regenerate {
        case .every(let minutes): return minutes
        case .onChange, .afterTTL: return cacheTTLMinutes
        }
    }
}

extension BackendGeneration.Regeneration: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        switch text {
        case "onChange": self = .onChange
        case "afterTTL": self = .afterTTL
        default:
            if text.hasPrefix("every("), text.hasSuffix(")"), let minutes = Double(text.dropFirst(6).dropLast()) {
                self = .every(minutes: minutes)
                return
            }
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "unknown regeneration \(quoted(text)); expected \"onChange\", \"afterTTL\" or \"every(MINUTES)\"")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(summary)
    }

    /// `onChange`, `every(30)`, `afterTTL`.
    public var summary: String {
        switch self {
        case .onChange: return "onChange"
        case .afterTTL: return "afterTTL"
        case .every(let m): return "every(\(NumberText.plain(m)))"
        }
    }
}
