import Foundation
import WidgetQuotaSupport

/// What the widget shows, as content that many users share: a team's match summary is the same
/// text for every fan of the team, a weather line for everyone in a city.
///
/// The keys matter to designs whose paid call runs on the owner's backend (once per key, not
/// per device) and to broadcast pushes (a data change of a key reaches all its devices at once).
public struct SharedContent: Codable, Sendable, Equatable {
    /// How many distinct contents there are (teams, cities, locale × day); 1: everyone sees the same.
    /// With `groups` and no count in the file, the keys the groups hold.
    public var keys: Int = 1
    /// How users spread over the keys: the k-th most popular key holds a share proportional to
    /// 1 ÷ k^skew (Zipf's law; 0 spreads users evenly). The default 1 gives a few popular keys
    /// most of the users, as fans of a few big teams or the people of a few big cities.
    public var skew: Double = 1
    /// Keys each user follows (a watchlist of symbols, a set of cities), drawn by popularity; a
    /// device's fetch asks for all of them. More keys a user means more distinct keys followed.
    public var keysPerUser: Int = 1
    /// How many keys users follow when they differ (half follow one symbol, a fifth twenty):
    /// each user draws a count from the mix, in place of `keysPerUser` (nil: every user follows
    /// `keysPerUser`).
    public var keysPerUserMix: [KeysShare]?
    /// Kinds of keys whose data changes in different hours (stocks in New York's session, crypto
    /// all the time), each with its count of keys and its hours (nil: the calendar's hours hold
    /// every key). The groups' keys interleave by popularity: each group holds its share of the
    /// popular keys and of the tail.
    public var groups: [ContentGroup]?

    /// A share of the users that follows so many keys.
    public struct KeysShare: Codable, Sendable, Equatable {
        /// Keys followed.
        public var keys: Int
        /// The share of users that follows them.
        public var share: Double

        /// `share` of the users follow `keys` keys.
        public init(keys: Int, share: Double) {
            self.keys = keys
            self.share = share
        }
    }
    /// Keys whose data changes in the same hours.
    public struct ContentGroup: Codable, Sendable, Equatable {
        /// The group's name (`stocks`, `crypto`), as the report's assumptions and the messages
        /// about the group name it.
        public var name: String
        /// How many of `content.keys` belong to it.
        public var keys: Int
        /// The hours its data changes in (nil: at any hour, every day).
        public var hours: OpenHours?
        /// The multiplier of `api.dataChangesPerDay` for its keys (nil: 1): a coin's price that
        /// changes every minute of the day beside a stock's that changes every minute of a
        /// 6.5-hour session is 24 ÷ 6.5 ≈ 3.7.
        public var dataChanges: Double?

        /// `keys` keys named `name` whose data changes in `hours` (nil: at any hour), `dataChanges`
        /// times as often as `api.dataChangesPerDay` (nil: as often).
        public init(name: String, keys: Int, hours: OpenHours? = nil, dataChanges: Double? = nil) {
            self.name = name
            self.keys = keys
            self.hours = hours
            self.dataChanges = dataChanges
        }

        /// The multiplier of the data changes of its keys.
        package var changeFactor: Double { dataChanges ?? 1 }
    }
    /// Seconds over which one broadcast push reaches all of a key's devices (APNs fans out a
    /// topic in seconds to minutes): an uncertain assumption.
    public var deliveryWindowSeconds: Double = 60

    /// One key, every user on it.
    public init() {}

    public init(from decoder: Decoder) throws {
        let d = SharedContent()
        let c = try decoder.container(keyedBy: CodingKeys.self)
        groups = try c.decodeIfPresent([ContentGroup].self, forKey: .groups)
        // With groups, the keys they hold unless the file says.
        keys = try c.value(.keys, or: groups.map { $0.reduce(0) { $0 + $1.keys } } ?? d.keys)
        skew = try c.value(.skew, or: d.skew)
        keysPerUser = try c.value(.keysPerUser, or: d.keysPerUser)
        keysPerUserMix = try c.decodeIfPresent([KeysShare].self, forKey: .keysPerUserMix)
        deliveryWindowSeconds = try c.value(.deliveryWindowSeconds, or: d.deliveryWindowSeconds)
    }

    /// Each key's share of the users, most popular first (they add up to 1).
    public var shares: [Double] {
        let weights = (1...max(keys, 1)).map { 1 / Foundation.pow(Double($0), skew) }
        let total = weights.reduce(0, +)
        return weights.map { $0 / total }
    }

    /// The group of each key, most popular first (all 0 without `groups`): each group in turn
    /// takes the next key when it is furthest behind its share of the keys so far, so that the
    /// groups interleave through the ranks. A group beyond the keys' count gets none.
    package var keyGroups: [Int] {
        let count = max(keys, 1)
        guard let groups, groups.count > 1 else { return [Int](repeating: 0, count: count) }
        let sizes = groups.map { Double(max($0.keys, 0)) }
        let total = max(sizes.reduce(0, +), 1)
        var taken = [Double](repeating: 0, count: groups.count)
        return (0..<count).map { rank in
            var best = 0
            var bestLag = -Double.infinity
            for g in groups.indices where taken[g] < sizes[g] {
                let lag = sizes[g] * Double(rank + 1) / total - taken[g]
                if lag > bestLag {
                    best = g
                    bestLag = lag
                }
            }
            taken[best] += 1
            return best
        }
    }

    /// The same content with `count` keys, each group keeping its share of them (at least one
    /// key each; the largest remainders round up), and no user following more keys than there are.
    package func withKeys(_ count: Int) -> SharedContent {
        var c = self
        c.keys = count
        c.keysPerUser = min(keysPerUser, count)
        c.keysPerUserMix = keysPerUserMix?.map { .init(keys: min($0.keys, count), share: $0.share) }
        if let groups, !groups.isEmpty {
            let total = Double(max(groups.reduce(0) { $0 + $1.keys }, 1))
            let exact = groups.map { Double($0.keys) * Double(count) / total }
            var sizes = exact.map { max(Int($0.rounded(.down)), 1) }
            let byRemainder = exact.indices.sorted { exact[$0] - exact[$0].rounded(.down) > exact[$1] - exact[$1].rounded(.down) }
            var i = 0
            while sizes.reduce(0, +) < count {
                sizes[byRemainder[i % sizes.count]] += 1
                i += 1
            }
            while sizes.reduce(0, +) > count, let g = sizes.indices.max(by: { sizes[$0] < sizes[$1] }), sizes[g] > 1 { sizes[g] -= 1 }
            c.groups = zip(groups, sizes).map { .init(name: $0.name, keys: $1, hours: $0.hours, dataChanges: $0.dataChanges) }
        }
        return c
    }

    /// Each key group's share of the follows: the popularity its keys hold (one group, 1, without
    /// groups).
    package var groupFollowShares: [Double] { Self.followShares(shares: shares, keyGroups: keyGroups, groups: groupCount) }

    /// The groups' shares of the follows from each key's share and group (`shares`, `keyGroups`).
    package static func followShares(shares: [Double], keyGroups: [Int], groups: Int) -> [Double] {
        var mass = [Double](repeating: 0, count: groups)
        for (key, share) in shares.enumerated() { mass[keyGroups[key]] += share }
        return mass
    }

    /// The share of users who follow at least one key of a group that holds `followShare` of the
    /// follows: each of a user's keys falls in it with that chance.
    package func usersFollowing(followShare m: Double) -> Double {
        func atLeastOne(_ keys: Int) -> Double { 1 - Foundation.pow(1 - m, Double(max(keys, 1))) }
        guard let mix = keysPerUserMix, !mix.isEmpty else { return atLeastOne(keysPerUser) }
        let total = mix.reduce(0) { $0 + $1.share }
        return total > 0 ? mix.reduce(0) { $0 + $1.share / total * atLeastOne($1.keys) } : atLeastOne(1)
    }

    /// Expected keys of group `group` that at least one of `users` users follows.
    package func followedKeys(users: Int, group: Int) -> Double {
        let groups = keyGroups
        return shares.enumerated().reduce(0) { $0 + (groups[$1.offset] == group ? followed(share: $1.element, users: users) : 0) }
    }

    /// The number of key groups (1 without `groups`).
    package var groupCount: Int { max(groups?.count ?? 1, 1) }

    /// The mean keys a user follows: over the mix, or `keysPerUser`.
    package var meanKeysPerUser: Double {
        guard let mix = keysPerUserMix, !mix.isEmpty else { return Double(max(keysPerUser, 1)) }
        let total = mix.reduce(0) { $0 + $1.share }
        return total > 0 ? mix.reduce(0) { $0 + Double(max($1.keys, 1)) * $1.share } / total : 1
    }

    /// The most keys a user follows.
    package var maxKeysPerUser: Int { keysPerUserMix.flatMap { $0.map(\.keys).max() } ?? max(keysPerUser, 1) }

    /// Keys followed by a user whose draw is `u` in [0, 1): the mix's entry whose cumulative
    /// share first passes it, or `keysPerUser`.
    package func keysFollowed(draw u: Double) -> Int {
        guard let mix = keysPerUserMix, !mix.isEmpty else { return max(keysPerUser, 1) }
        let total = mix.reduce(0) { $0 + $1.share }
        var cumulative = 0.0
        for entry in mix {
            cumulative += entry.share / total
            if u < cumulative { return max(entry.keys, 1) }
        }
        return max(mix[mix.count - 1].keys, 1)
    }

    /// The keys of a fetch weighted by the requests they make, E[k²] ÷ E[k]: the burst of a fetch
    /// that sends a request per key, for the variance of the load (a user who follows more keys
    /// sends more of the requests).
    package var requestWeightedKeys: Double {
        guard let mix = keysPerUserMix, !mix.isEmpty else { return Double(max(keysPerUser, 1)) }
        let second = mix.reduce(0) { $0 + Double(max($1.keys, 1) * max($1.keys, 1)) * $1.share }
        let first = mix.reduce(0) { $0 + Double(max($1.keys, 1)) * $1.share }
        return first > 0 ? second / first : 1
    }

    /// Expected number of keys that at least one of `users` users follows.
    package func followedKeys(users: Int) -> Double {
        shares.reduce(0) { $0 + followed(share: $1, users: users) }
    }

    /// The chance that at least one of `users` users, each following `keysPerUser` keys (or the
    /// mix's mean), follows a key of share `share`: each user's keys are taken as that many draws
    /// by popularity.
    package func followed(share: Double, users: Int) -> Double {
        Self.followed(share: share, draws: Double(users) * meanKeysPerUser)
    }

    /// The chance that a key of share `share` comes up at least once in `draws` draws by popularity.
    package static func followed(share: Double, draws: Double) -> Double {
        guard share < 1 else { return 1 }
        return -Foundation.expm1(draws * Foundation.log1p(-share))
    }
}
