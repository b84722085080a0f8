import Foundation
import WidgetQuotaSupport

/// Checks a decoded scenario for values that cannot be simulated, naming the field at fault.
package enum ScenarioValidator {
    /// Largest population a projection accepts (a billion devices is already beyond iOS).
    package static let maxUsers = 1_000_000_000
    /// Longest horizon, in days.
    package static let maxDays = 366
    /// Most Monte-Carlo runs, and most users simulated event by event per run.
    package static let maxRuns = 100_000
    package static let maxSampleUsers = 10_000_000
    /// Most entries of the scenario's lists: each is simulated, tabled and charted, so a list
    /// never makes the work run away (10,000 population sizes took over 3 minutes and 2.5 GB).
    package enum ListBounds {
        /// Population sizes in `horizon.users` (a sweep of users is a dozen; `sweep` goes finer).
        package static let userCounts = 100
        package static let tiers = 100
        package static let outages = 1_000
        /// One event a day for the longest horizon.
        package static let events = 366
        /// One kind per weekday.
        package static let dayKinds = 7
    }

    /// The values the model accepts for the fields `analyze` measures (and a few like them);
    /// the validator checks them and the calibrator caps measurements to them.
    package enum Bounds {
        /// Any share: smart-stack, Low Power day and never-open shares, multi-widget share.
        package static let share = 0.0...1.0
        package static let appOpensPerDay = 0.0...500.0
        package static let instancesWhenMulti = 1...16
        /// getTimeline calls per instance-day of one cause (WidgetKit's own, Smart Stack rotation).
        package static let reloadsPerDay = 0.0...10_000.0
        /// Mean minutes a policy reload runs after its date: up to a day.
        package static let policyLatenessMinutes = 0.0...1_440.0
        /// A coefficient of variation, such as `getTimelineDaySpread`.
        package static let spread = 0.0...10.0
        package static let backgroundRunsPerDay = 0.0...96.0
        package static let backgroundLowPowerFactor = 0.0...1.0
    }

    /// Throws `WidgetQuotaError.invalidScenario` for the first invalid value.
    package static func validate(_ s: Scenario) throws {
        var v = Checker()
        let h = s.horizon
        v.check(h.days >= 1 && h.days <= maxDays, "horizon.days", "must be between 1 and \(maxDays), got \(h.days)")
        v.check(h.warmupDays >= 0 && h.warmupDays <= 30, "horizon.warmupDays", "must be between 0 and 30, got \(h.warmupDays)")
        v.check(!h.users.isEmpty, "horizon.users", "must list at least one population size")
        v.count(h.users.count, "horizon.users", ListBounds.userCounts, "population sizes")
        for (i, n) in h.users.enumerated() {
            v.check(n >= 1 && n <= maxUsers, "horizon.users[\(i)]", "must be between 1 and \(maxUsers), got \(n)")
        }
        v.check(h.runs >= 1 && h.runs <= maxRuns, "horizon.runs", "must be between 1 and \(maxRuns), got \(h.runs)")
        v.check(
            h.sampleUsers >= 1 && h.sampleUsers <= maxSampleUsers, "horizon.sampleUsers",
            "must be between 1 and \(maxSampleUsers), got \(h.sampleUsers)")
        if let growth = h.growth { growthChecks(growth, &v) }
        // Later checks use the horizon (days, users): never with a value refused here.
        try v.stopIfFailed()

        let p = s.population
        v.share(p.smartStackShare, "population.smartStackShare")
        v.distribution(p.smartStackRotationsPerDay, "population.smartStackRotationsPerDay", Bounds.reloadsPerDay)
        v.distribution(p.smartStackReloadsPerDay, "population.smartStackReloadsPerDay", Bounds.reloadsPerDay)
        v.share(p.lowPowerDayShare, "population.lowPowerDayShare")
        v.distribution(p.appOpensPerDay, "population.appOpensPerDay", Bounds.appOpensPerDay)
        v.number(p.appOpensUserSpread, "population.appOpensUserSpread", Bounds.spread)
        v.share(p.neverOpenShare, "population.neverOpenShare")
        v.number(p.foregroundMinutes, "population.foregroundMinutes", 0...Double.minutesPerDay)
        v.number(p.idleStartHour, "population.idleStartHour", 0...24)
        v.number(p.idleHours, "population.idleHours", 0...20, note: "must be between 0 and 20 hours (a phone is in use part of every day)")
        v.share(p.multiWidgetShare, "population.multiWidgetShare")
        v.share(p.backgroundRefreshOffShare, "population.backgroundRefreshOffShare")
        v.distribution(p.interactiveTapsPerDay, "population.interactiveTapsPerDay", Bounds.reloadsPerDay)
        v.check(
            Bounds.instancesWhenMulti.contains(p.instancesWhenMulti), "population.instancesWhenMulti",
            "must be between \(Bounds.instancesWhenMulti.lowerBound) and \(Bounds.instancesWhenMulti.upperBound), got \(p.instancesWhenMulti)"
        )
        v.number(p.rarelyViewedShare, "population.rarelyViewedShare", 0...1)
        v.nonNegative(p.glancesPerDay, "population.glancesPerDay", max: 1000)
        v.number(p.freshnessTargetMinutes, "population.freshnessTargetMinutes", 0...(.minutesPerDay * 30))
        v.check(!p.timeZones.isEmpty, "population.timeZones", "must list at least one time zone")
        for (i, zone) in p.timeZones.enumerated() {
            v.number(zone.utcOffsetHours, "population.timeZones[\(i)].utcOffsetHours", -12...14)
            v.number(zone.share, "population.timeZones[\(i)].share", 0...1)
        }
        let zoneTotal = p.timeZones.reduce(0) { $0 + $1.share }
        v.check(zoneTotal > 0, "population.timeZones", "shares must not all be zero")
        for (name, weights) in [("app", p.activity.app), ("widget", p.activity.widget), ("background", p.activity.background)] {
            let field = "population.activity.\(name)"
            v.check(weights.count == 24, field, "must have 24 hourly weights, got \(weights.count)")
            v.check(weights.allSatisfy { $0.isFinite && $0 >= 0 }, field, "weights must be finite and not negative")
            v.check(weights.contains { $0 > 0 }, field, "at least one hour must have a positive weight")
        }

        let f = s.platform
        v.distribution(f.systemReloadsPerDay, "platform.systemReloadsPerDay", Bounds.reloadsPerDay)
        v.distribution(f.policyLatenessMinutes, "platform.policyLatenessMinutes", Bounds.policyLatenessMinutes)
        v.number(f.getTimelineDaySpread, "platform.getTimelineDaySpread", Bounds.spread)
        v.number(f.getTimelineUserSpread, "platform.getTimelineUserSpread", Bounds.spread)
        v.number(f.rarelyViewedReloadFactor, "platform.rarelyViewedReloadFactor", 0...10)
        v.check(f.reloadBudgetMin >= 0, "platform.reloadBudgetMin", "must not be negative, got \(f.reloadBudgetMin)")
        v.check(
            f.reloadBudgetMax >= f.reloadBudgetMin, "platform.reloadBudgetMax",
            "must be at least reloadBudgetMin (\(f.reloadBudgetMin)), got \(f.reloadBudgetMax)")
        v.check(f.rarelyViewedBudget >= 0, "platform.rarelyViewedBudget", "must not be negative")
        v.number(
            f.minEntrySpacingMinutes, "platform.minEntrySpacingMinutes", 1...Double.minutesPerDay,
            note: "must be between 1 and 1440 minutes (a timeline reloading itself at once would never end)")
        v.number(
            f.backgroundEarliestBeginHours, "platform.backgroundEarliestBeginHours", 1.0 / 60...168,
            note: "must be between 1 minute (0.0167 h) and 168 hours")
        v.distribution(f.backgroundRunsPerDay, "platform.backgroundRunsPerDay", Bounds.backgroundRunsPerDay)
        v.number(f.backgroundLowPowerFactor, "platform.backgroundLowPowerFactor", Bounds.backgroundLowPowerFactor)
        v.number(f.taskSliceSeconds, "platform.taskSliceSeconds", 0.001...Double.secondsPerHour)
        v.share(f.silentPushDeliveryShare, "platform.silentPushDeliveryShare")
        v.number(f.silentPushesPerHour, "platform.silentPushesPerHour", 0...3_600)
        v.distribution(f.silentPushesPerDay, "platform.silentPushesPerDay", 0...86_400)
        v.number(f.liveActivityMaxHours, "platform.liveActivityMaxHours", 0.1...24)
        v.distribution(f.liveActivityUpdatesPerHour, "platform.liveActivityUpdatesPerHour", 0...3_600)
        v.distribution(f.liveActivityFrequentUpdatesPerHour, "platform.liveActivityFrequentUpdatesPerHour", 0...3_600)
        v.distribution(f.liveActivityLowPriorityDelayMinutes, "platform.liveActivityLowPriorityDelayMinutes", 0...Double.minutesPerDay)
        v.number(p.forceQuitShare, "population.forceQuitShare", Bounds.share)
        contentChecks(s, &v)
        calendarChecks(s, &v)

        let a = s.api
        if let name = a.catalogue {
            let entry = APICatalogue.entry(named: name)
            v.check(
                entry != nil, "api.catalogue",
                "\(quoted(name)) is not in the bundled catalogue" + suggestion(name, APICatalogue.names) + "; it holds "
                    + APICatalogue.names.joined(separator: ", "))
            if let entry {
                // A language-model entry is its provider's tiers: the model must be that provider's.
                let provider = ProviderTiers.provider(model: a.model)
                v.check(
                    entry.pricing != nil || provider == entry.name, "api.catalogue",
                    "\(quoted(name)) plans per token for \(entry.displayName)'s models, but api.model \(quoted(a.model)) is "
                        + (provider.map { "\($0)'s" } ?? "of no bundled provider") + "; set api.model to one of its models")
                // The tiers `widget-quota scenario` prints are a provider's table: kept, they would
                // silently replace the entry's plans.
                let printed = ProviderTiers.bundled.first { $0.tiers == s.quotas.tiers && $0.provider != name }
                v.check(
                    printed == nil || !s.quotas.tiersFromScenario, "quotas.tiers",
                    "are \(printed?.displayName ?? "")'s tiers (as `widget-quota scenario` prints them), which would replace the plans of "
                        + "api.catalogue \(quoted(name)); delete quotas.tiers (and resetUTCOffsetHours and dayWindow) to plan on its plans")
            }
        }
        v.number(a.latencySeconds, "api.latencySeconds", 0...600)
        v.number(a.timeoutSeconds, "api.timeoutSeconds", 0.001...Double.secondsPerHour)
        v.share(a.failureProbability, "api.failureProbability")
        v.number(a.hangShareOfFailures, "api.hangShareOfFailures", 0...1)
        v.nonNegative(a.inputTokensPerRequest, "api.inputTokensPerRequest", max: 10_000_000)
        v.nonNegative(a.outputTokensPerRequest, "api.outputTokensPerRequest", max: 10_000_000)
        v.nonNegative(a.dataChangesPerDay, "api.dataChangesPerDay", max: .minutesPerDay)
        v.count(a.outages.count, "api.outages", ListBounds.outages, "outages")
        for (i, o) in a.outages.enumerated() {
            let field = "api.outages[\(i)]"
            v.check(o.day >= 1 && o.day <= h.days, field + ".day", "must be between 1 and horizon.days (\(h.days)), got \(o.day)")
            v.number(o.startHourUTC, field + ".startHourUTC", 0...24)
            v.number(o.durationHours, field + ".durationHours", 0...(24 * Double(maxDays)))
            v.number(o.errorRate, field + ".errorRate", 0...1)
        }

        let q = s.quotas
        v.number(q.resetUTCOffsetHours, "quotas.resetUTCOffsetHours", -12...14)
        // The quota day's start below is computed from the offset: never from a refused one.
        try v.stopIfFailed()
        // A requests-per-day limit is checked on complete quota days (midnight to midnight in the
        // quota's zone) inside the counted days; a horizon with none would pass every such limit.
        if q.resetUTCOffsetHours.isFinite, h.days >= 1, q.tiers.contains(where: { $0.rpd != nil }) {
            let start =
                ((Int((-q.resetUTCOffsetHours * .minutesPerHour).rounded()) % TimeUnits.minutesPerDay) + TimeUnits.minutesPerDay)
                % TimeUnits.minutesPerDay
            v.check(
                h.days * TimeUnits.minutesPerDay - start >= TimeUnits.minutesPerDay, "horizon.days",
                "\(h.days == 1 ? "1 day holds" : "\(h.days) days hold") no complete quota day (quota days reset at UTC\(NumberText.plain(q.resetUTCOffsetHours)) h), "
                    + "so no requests-per-day limit could be checked; use at least \(h.days + 1) days")
        }
        v.number(q.acceptableRisk, "quotas.acceptableRisk", 0...1)
        v.check(!q.tiers.isEmpty, "quotas.tiers", "must list at least one tier")
        v.count(q.tiers.count, "quotas.tiers", ListBounds.tiers, "tiers")
        for (i, tier) in q.tiers.enumerated() {
            let field = "quotas.tiers[\(i)]"
            v.name(tier.name, field + ".name")
            // A limit of 0 (or a denormal) would divide every peak into Infinity: leave the key out
            // for an unpublished limit instead.
            for (key, value) in [("rpm", tier.rpm), ("tpm", tier.tpm), ("rph", tier.rph), ("rpd", tier.rpd)] {
                if let value {
                    v.number(
                        value, field + "." + key, 1e-6...1e15,
                        note: "must be between 0.000001 and 1e15 (leave the key out for an unpublished limit)")
                }
            }
            if let included = tier.includedPerMonth {
                v.number(included, field + ".includedPerMonth", 0...1e15)
                v.check(
                    s.api.pricing?.monthlyCap(of: tier) != 0, field + ".includedPerMonth",
                    "is 0 and the plan bills no overage (no overagePerUnit, no api.pricing.pricePerUnit), so it carries no month; "
                        + "leave the plan out, or give its overage price")
            }
            if let fee = tier.monthlyFee { v.number(fee, field + ".monthlyFee", 0...1e9) }
            // Beside plans, a tier without a price of its own bills nothing a month can be priced
            // by (no pay-as-you-go price either): it could never be chosen, though its limits hold.
            if let pricing = s.api.pricing, pricing.per != .token, pricing.pricePerUnit == nil, pricing.volumeTiers == nil,
                !APIPricing.isPriced(tier), q.tiers.contains(where: APIPricing.isPriced)
            {
                v.check(
                    false, field,
                    "the tier \(quoted(tier.name)) has no price while other tiers are plans and api.pricing has no pricePerUnit; "
                        + "give it its monthlyFee (0 for a free plan)")
            }
            if let overage = tier.overagePerUnit { v.number(overage, field + ".overagePerUnit", 0...1_000) }
        }
        if let p = s.api.pricing {
            v.number(p.creditsPerRequest, "api.pricing.creditsPerRequest", 1e-6...1e6)
            if let price = p.pricePerUnit { v.number(price, "api.pricing.pricePerUnit", 0...1_000) }
            if let bands = p.volumeTiers {
                v.count(bands.count, "api.pricing.volumeTiers", ListBounds.tiers, "bands")
                v.check(!bands.isEmpty, "api.pricing.volumeTiers", "must hold at least one band (leave the key out for one price)")
                var below = 0.0
                for (i, band) in bands.enumerated() {
                    let field = "api.pricing.volumeTiers[\(i)]"
                    v.number(band.pricePerUnit, field + ".pricePerUnit", 0...1_000)
                    if let top = band.upTo {
                        v.number(top, field + ".upTo", 0...1e15)
                        v.check(
                            top > below, field + ".upTo",
                            "must be above the band before it (\(NumberText.plain(below))), got \(NumberText.plain(top))")
                        below = top
                    } else {
                        v.check(i == bands.count - 1, field + ".upTo", "only the last band may leave out upTo (no end)")
                    }
                }
            }
            v.number(p.freePerDay, "api.pricing.freePerDay", 0...1e15)
            v.number(p.freePerMonth, "api.pricing.freePerMonth", 0...1e15)
            v.check(
                p.per == .credit || p.creditsPerRequest == 1, "api.pricing.creditsPerRequest",
                "applies to \"per\": \"credit\" only; a request costs one \(p.per.rawValue)")
            if let perKey = p.creditsPerKey {
                v.number(perKey, "api.pricing.creditsPerKey", 1e-6...1e6)
                v.check(
                    p.per == .credit, "api.pricing.creditsPerKey",
                    "applies to \"per\": \"credit\" only; a request costs one \(p.per.rawValue)")
                v.check(
                    p.creditsPerRequest == 1, "api.pricing.creditsPerKey",
                    "replaces creditsPerRequest (\(NumberText.plain(p.creditsPerRequest))); give one of the two")
            }
        }

        if let name = s.name { v.name(name, "name") }
        v.number(s.targets.maxStaleShare, "targets.maxStaleShare", Bounds.share)
        if let budget = s.targets.maxCostPerMonth { v.number(budget, "targets.maxCostPerMonth", 0...1e12) }
        if let tier = s.targets.maxTier {
            let tiers = q.tiers.map(\.name)
            v.check(
                tiers.contains(tier), "targets.maxTier",
                "unknown tier \(quoted(tier))" + suggestion(tier, tiers) + "; the tiers are " + tiers.joined(separator: ", "))
        }

        var names = Set<String>()
        for (i, d) in s.designs.enumerated() {
            let field = "designs[\(i)]"
            v.name(d.name, field + ".name")
            v.check(names.insert(d.name).inserted, field + ".name", "\(quoted(d.name)) is defined twice")
            validate(design: d, field: field, platform: f, keysPerUser: s.content.maxKeysPerUser, into: &v)
        }
        let known = s.availableDesigns.map(\.name)
        v.check(
            known.contains(s.baseline), "baseline",
            "unknown design \(quoted(s.baseline))" + suggestion(s.baseline, known))
        if let error = v.first { throw error }
    }

    /// Checks that every name is a known design, suggesting the nearest one.
    package static func checkDesignNames(_ names: [String], in scenario: Scenario, field: String = "--designs") throws {
        let known = scenario.availableDesigns.map(\.name)
        for name in names where !known.contains(name) {
            throw WidgetQuotaError.invalidScenario(
                field: field,
                problem:
                    "unknown design \(quoted(name))" + suggestion(name, known) + "; known designs: " + known.joined(separator: ", "))
        }
    }

    package static func validate(design d: Design, field: String, platform: Platform, into v: inout Checker) {
        validate(design: d, field: field, platform: platform, keysPerUser: 1, into: &v)
    }

    /// `design`'s fields, with the keys each user follows (a fetch that sends a request per key
    /// sends that many).
    package static func validate(design d: Design, field: String, platform: Platform, keysPerUser: Int, into v: inout Checker) {
        if d.requestPerKey && d.backend == nil {
            v.check(
                d.requestsPerFetch * max(keysPerUser, 1) <= 1_000, field + ".requestPerKey",
                "makes a fetch of \(d.requestsPerFetch) × \(keysPerUser) requests (the most keys a user follows), more than 1,000; "
                    + "ask for every key in one request (leave requestPerKey out) or follow fewer keys")
        }
        v.check(!d.fetchTriggers.isEmpty, field + ".fetchTriggers", "must name at least one trigger")
        if let ttl = d.cacheTTLMinutes {
            v.number(ttl, field + ".cacheTTLMinutes", 0...(.minutesPerDay * 30))
        }
        if case .after(let minutes) = d.reloadPolicy {
            v.number(minutes, field + ".reloadPolicy", platform.minEntrySpacingMinutes...(.minutesPerDay * 30))
        }
        v.check(
            d.timelineEntries >= 1 && d.timelineEntries <= 1000, field + ".timelineEntries",
            "must be between 1 and 1000, got \(d.timelineEntries)")
        v.number(
            d.entrySpacingMinutes, field + ".entrySpacingMinutes", platform.minEntrySpacingMinutes...Double.minutesPerDay,
            note: "timeline entries must be at least \(NumberText.plain(platform.minEntrySpacingMinutes)) minutes apart "
                + "and at most 1440 (a day)")
        v.check(
            d.requestsPerFetch >= 1 && d.requestsPerFetch <= 100, field + ".requestsPerFetch",
            "must be between 1 and 100, got \(d.requestsPerFetch)")
        v.check(
            d.requestsPerTap >= 0 && d.requestsPerTap <= 100, field + ".requestsPerTap",
            "must be between 0 and 100, got \(d.requestsPerTap)")
        if let hours = d.backgroundIntervalHours {
            v.number(
                hours, field + ".backgroundIntervalHours", 1.0 / 60...168, note: "must be between 1 minute (0.0167 h) and 168 hours")
        }
        if case .backoff(let n, let base, _) = d.retry {
            v.check(n >= 0 && n <= 20, field + ".retry.maxRetries", "must be between 0 and 20, got \(n)")
            v.number(base, field + ".retry.baseSeconds", 0.001...Double.secondsPerDay)
        }
        if let align = d.alignToWallClockMinutes {
            v.number(align, field + ".alignToWallClockMinutes", 1...Double.minutesPerDay)
        }
        v.number(d.jitterSeconds, field + ".jitterSeconds", 0...Double.secondsPerDay)
        if d.requestPerKey {
            v.check(
                d.backend == nil, field + ".requestPerKey",
                "applies to a design whose devices call the API; a backend's generation asks for one key already")
        }
        if let b = d.backend {
            if case .every(let minutes) = b.regenerate {
                v.number(
                    minutes, field + ".backend.regenerate", 1...Double.minutesPerDay,
                    note: "every(MINUTES) must be between 1 and 1440 minutes")
            }
            v.number(b.cacheTTLMinutes, field + ".backend.cacheTTLMinutes", 0...(.minutesPerDay * 30))
            v.check(
                b.requestsPerGeneration >= 0 && b.requestsPerGeneration <= 100, field + ".backend.requestsPerGeneration",
                "must be between 0 and 100, got \(b.requestsPerGeneration)")
            if let price = b.pricePerMillionRequests { v.number(price, field + ".backend.pricePerMillionRequests", 0...1e6) }
            if let popular = b.popular {
                if case .every(let minutes) = b.regenerate {
                    v.number(
                        popular.everyMinutes, field + ".backend.popular.everyMinutes", 1...max(minutes, 1),
                        note: "the popular keys' period must be between 1 minute and the schedule's \(NumberText.plain(minutes))")
                } else {
                    v.check(false, field + ".backend.popular", "applies to an every(MINUTES) schedule only")
                }
                v.check(popular.keys >= 1, field + ".backend.popular.keys", "must be at least 1, got \(popular.keys)")
            }
        }
        if let activity = d.liveActivity {
            v.check(
                d.backend != nil, field + ".liveActivity",
                "needs a backend: the pushes that update a Live Activity come from the owner's server, which calls the paid API "
                    + "(add \"backend\": {\"regenerate\": \"onChange\"})")
            v.number(activity.startShare, field + ".liveActivity.startShare", 0...1)
            v.check(
                activity.priority == 5 || activity.priority == 10, field + ".liveActivity.priority",
                "must be 5 (delivered when the system chooses, no budget) or 10 (at once, within the budget), got \(activity.priority)")
        }
    }

    /// Most content keys, and most key changes over the horizon (each is simulated).
    package static let maxContentKeys = 100_000
    package static let maxKeyChanges = 5_000_000
    /// Most key groups with hours of their own (`content.groups`): a user's hours are the union of
    /// the groups they follow, one set for each combination.
    package static let maxKeyGroups = 4

    /// `content`: keys, their skew and the delivery window; the key changes a run draws stay bounded.
    static func contentChecks(_ s: Scenario, _ v: inout Checker) {
        let c = s.content
        v.check(
            c.keys >= 1 && c.keys <= maxContentKeys, "content.keys", "must be between 1 and \(maxContentKeys), got \(c.keys)")
        v.number(c.skew, "content.skew", 0...5)
        v.check(
            c.keysPerUser >= 1 && c.keysPerUser <= min(c.keys, 1_000), "content.keysPerUser",
            "must be between 1 and content.keys (at most 1,000), got \(c.keysPerUser)")
        if let mix = c.keysPerUserMix {
            v.check(
                c.keysPerUser == 1, "content.keysPerUserMix",
                "replaces content.keysPerUser (\(c.keysPerUser)): give one of them")
            v.check(!mix.isEmpty, "content.keysPerUserMix", "must list at least one {keys, share}")
            v.count(mix.count, "content.keysPerUserMix", 100, "entries")
            for (i, entry) in mix.enumerated() {
                let field = "content.keysPerUserMix[\(i)]"
                v.check(
                    entry.keys >= 1 && entry.keys <= min(c.keys, 1_000), field + ".keys",
                    "must be between 1 and content.keys (at most 1,000), got \(entry.keys)")
                v.number(entry.share, field + ".share", 0...1)
            }
            let total = mix.reduce(0) { $0 + $1.share }
            v.check(
                abs(total - 1) <= 1e-6, "content.keysPerUserMix",
                "shares must add up to 1, got \(NumberText.plain(total))")
        }
        v.number(c.deliveryWindowSeconds, "content.deliveryWindowSeconds", 0...Double.secondsPerDay)
        // Every simulated day's factor: the padding, warm-up and tail days as well as the counted ones.
        let dayFactors = ((-s.horizon.warmupDays - 1)...(s.horizon.days + 1)).reduce(0.0) {
            $0 + s.calendar.factors(ofDay: $1).dataChanges
        }
        // Each group's keys change its own multiple as often.
        let keyChangeFactors = c.groups.map { groups in groups.reduce(0.0) { $0 + Double($1.keys) * max($1.changeFactor, 0) } }
        let changes = (keyChangeFactors ?? Double(c.keys)) * s.api.dataChangesPerDay.quantile(0.999) * dayFactors
        // Only designs that follow the changes draw them, one by one.
        let drawsChanges = s.designs.contains {
            $0.followsKeyChanges || $0.liveActivity != nil
        }
        v.check(
            !drawsChanges || changes <= Double(maxKeyChanges), "content.keys",
            "\(c.keys) keys with up to \(NumberText.plain(s.api.dataChangesPerDay.quantile(0.999))) changes a day each make about "
                + "\(NumberText.plain(changes.rounded())) key changes over the horizon, more than the \(maxKeyChanges) a run can hold; use fewer keys or changes"
        )
    }

    /// `calendar`: day kinds by weekday, events on days of the horizon, factors and windows in range.
    static func calendarChecks(_ s: Scenario, _ v: inout Checker) {
        func factors(_ f: DayFactors, _ field: String) {
            v.number(f.appOpens, field + ".appOpens", 0...100)
            v.number(f.glances, field + ".glances", 0...100)
            v.number(f.dataChanges, field + ".dataChanges", 0...1_000)
            if let start = f.startHourUTC { v.number(start, field + ".startHourUTC", 0...23.99) }
            if let hours = f.hours {
                v.check(f.startHourUTC != nil, field + ".hours", "needs startHourUTC, the UTC hour the window starts at")
                // The window's end is checked against a start in range only (a refused start has no day to end in).
                let start = f.startHourUTC ?? 0
                if (0...23.99).contains(start) {
                    v.number(hours, field + ".hours", 0.01...(24 - start), note: "must end within the UTC day it starts in")
                }
            }
        }
        var names = Set<String>()
        v.count(s.calendar.dayKinds.count, "calendar.dayKinds", ListBounds.dayKinds, "day kinds (one per weekday)")
        v.count(s.calendar.events.count, "calendar.events", ListBounds.events, "events (one a day for a year)")
        for (i, kind) in s.calendar.dayKinds.enumerated() {
            let field = "calendar.dayKinds[\(i)]"
            v.name(kind.name, field + ".name")
            v.check(!kind.weekdays.isEmpty, field + ".weekdays", "must name at least one weekday")
            factors(kind.factors, field)
        }
        for (i, event) in s.calendar.events.enumerated() {
            let field = "calendar.events[\(i)]"
            v.name(event.name, field + ".name")
            v.check(names.insert(event.name).inserted, field + ".name", "\(quoted(event.name)) is named twice")
            v.check(
                event.day >= 1 && event.day <= s.horizon.days, field + ".day",
                "must be between 1 and horizon.days (\(s.horizon.days)), got \(event.day)")
            factors(event.factors, field)
        }
        openHoursChecks(s.calendar, &v)
        groupChecks(s, &v)
        for (i, d) in s.designs.enumerated() where d.policyFollowsHours {
            v.check(
                s.hasOpenHours, "designs[\(i)].policyFollowsHours",
                "needs calendar.hours or a content group's hours, the hours the policy follows")
        }
        for (i, d) in s.designs.enumerated() where d.liveActivity != nil {
            v.check(
                s.calendar.hasLiveEvents, "designs[\(i)].liveActivity",
                "runs during live events: give calendar.dayKinds or calendar.events a startHourUTC and hours (a match's window)")
            v.check(
                !s.hasOpenHours && s.content.groups == nil, "designs[\(i)].liveActivity",
                "follows live events (a day's startHourUTC and hours), not open hours (calendar.hours or a content group's): a scenario has one or the other"
            )
        }
        for (i, d) in s.designs.enumerated() where d.backend?.onlyWhenOpen == true {
            let field = "designs[\(i)].backend.onlyWhenOpen"
            v.check(s.hasOpenHours, field, "needs calendar.hours or a content group's hours, the hours the schedule runs in")
            if case .every = d.backend?.regenerate {
            } else {
                v.check(false, field, "applies to an every(MINUTES) schedule only")
            }
        }
    }

    /// `calendar.startDate` and `calendar.hours`: a real date, and hours as `hoursChecks` reads them.
    static func openHoursChecks(_ calendar: ScenarioCalendar, _ v: inout Checker) {
        if let text = calendar.startDate {
            if let date = CalendarDate(text: text) {
                v.check(
                    date.weekday == calendar.firstWeekday, "calendar.firstWeekday",
                    "is \(calendar.firstWeekday.rawValue), but calendar.startDate \(text) is a \(date.weekday.rawValue); leave one out")
            } else {
                v.check(false, "calendar.startDate", "must be a date as YYYY-MM-DD, got \(quoted(text))")
            }
        }
        if let hours = calendar.hours { hoursChecks(hours, "calendar.hours", calendar, &v) }
    }

    /// One set of open hours at `field` (`calendar.hours`, a key group's): a start date to place
    /// them, a real time zone, a session that ends after it opens, holidays as dates.
    static func hoursChecks(_ hours: OpenHours, _ field: String, _ calendar: ScenarioCalendar, _ v: inout Checker) {
        v.check(
            calendar.startDate != nil, field,
            "needs calendar.startDate, the date of day 1, to place daylight saving time and holidays")
        if TimeZone(identifier: hours.timeZone) == nil {
            let nearest = Levenshtein.nearest(to: hours.timeZone, in: TimeZone.knownTimeZoneIdentifiers)
            v.check(
                false, field + ".timeZone",
                "\(quoted(hours.timeZone)) is not a time zone name; "
                    + (nearest.map { "did you mean \(quoted($0))?" } ?? "use one such as America/New_York or Europe/London"))
        }
        let open = OpenHours.minutes(ofClock: hours.open)
        let close = OpenHours.minutes(ofClock: hours.close)
        v.check(open != nil, field + ".open", "must be a local time as HH:MM, got \(quoted(hours.open))")
        v.check(close != nil, field + ".close", "must be a local time as HH:MM, got \(quoted(hours.close))")
        if let open, let close {
            v.check(close > open, field + ".close", "must be after \(field).open (\(hours.open)), got \(hours.close)")
        }
        v.check(!hours.weekdays.isEmpty, field + ".weekdays", "must name at least one weekday")
        v.count(hours.holidays.count, field + ".holidays", ListBounds.events, "holidays (one a day for a year)")
        for (i, day) in hours.holidays.enumerated() {
            v.check(CalendarDate(text: day) != nil, field + ".holidays[\(i)]", "must be a date as YYYY-MM-DD, got \(quoted(day))")
        }
    }

    /// `content.groups`: named once each, keys that add up to `content.keys`, hours that read,
    /// and no `calendar.hours` beside them.
    static func groupChecks(_ s: Scenario, _ v: inout Checker) {
        guard let groups = s.content.groups else { return }
        let field = "content.groups"
        v.check(
            (1...maxKeyGroups).contains(groups.count), field,
            "must list between 1 and \(maxKeyGroups) groups of keys, got \(groups.count)")
        v.check(
            s.calendar.hours == nil, "calendar.hours",
            "cannot stand beside content.groups: give the hours to the groups whose data follows them (a group without hours changes at any hour)"
        )
        var names = Set<String>()
        for (i, group) in groups.enumerated() {
            let item = "\(field)[\(i)]"
            v.name(group.name, item + ".name")
            v.check(names.insert(group.name).inserted, item + ".name", "\(quoted(group.name)) is named twice")
            v.check(group.keys >= 1, item + ".keys", "must be at least 1, got \(group.keys)")
            if let factor = group.dataChanges { v.number(factor, item + ".dataChanges", 0...1_000) }
            if let hours = group.hours { hoursChecks(hours, item + ".hours", s.calendar, &v) }
        }
        let total = groups.reduce(0) { $0 + $1.keys }
        v.check(
            total == s.content.keys, field,
            "hold \(total) keys between them, but content.keys is \(s.content.keys); they must agree")
    }

    /// `horizon.growth`: at least one month, at most `Growth.maxMonths`, every month's users a
    /// population the engine accepts.
    static func growthChecks(_ growth: Growth, _ v: inout Checker) {
        let field = "horizon.growth"
        switch growth {
        case .monthly(let list):
            v.check(!list.isEmpty, field, "must list the users of at least one month")
            v.check(list.count <= Growth.maxMonths, field, "must list at most \(Growth.maxMonths) months, got \(list.count)")
            for (i, n) in list.enumerated() {
                v.check(n >= 1 && n <= maxUsers, "\(field)[\(i)]", "users in month \(i + 1) must be between 1 and \(maxUsers), got \(n)")
            }
        case .curve(let start, let end, let months, _):
            v.check(start >= 1 && start <= maxUsers, field + ".start", "must be between 1 and \(maxUsers), got \(start)")
            v.check(end >= 1 && end <= maxUsers, field + ".end", "must be between 1 and \(maxUsers), got \(end)")
            v.check(
                months >= 2 && months <= Growth.maxMonths, field + ".months",
                "must be between 2 and \(Growth.maxMonths), got \(months)")
        }
    }

    static func suggestion(_ name: String, _ known: [String]) -> String {
        Levenshtein.nearest(to: name, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Collects the first failure.
    package struct Checker {
        package var first: WidgetQuotaError?

        package init() {}

        /// Throws the first failure so far, before checks that compute with the values it refused.
        func stopIfFailed() throws {
            if let first { throw first }
        }

        /// A name shown in reports, comments, annotations and terminals: 1 to 120 characters of one
        /// line, no control character (no line or paragraph separator, no escape sequence), not
        /// only spaces.
        mutating func name(_ name: String, _ field: String) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            check(!trimmed.isEmpty && name.count <= 120, field, "must be a name of 1 to 120 characters")
            let unprintable = PrintableText.firstUnprintableInName(name)
            check(
                unprintable == nil, field,
                "must be one line of printable text; it holds \(unprintable.map(PrintableText.codePoint) ?? "")")
        }

        /// A list's length against its bound: "must list at most 100 population sizes, got 10000".
        mutating func count(_ n: Int, _ field: String, _ bound: Int, _ what: String) {
            check(n <= bound, field, "must list at most \(bound) \(what), got \(n)")
        }

        mutating func check(_ condition: Bool, _ field: String, _ problem: @autoclosure () -> String) {
            if !condition && first == nil { first = .invalidScenario(field: field, problem: problem()) }
        }

        mutating func number(_ value: Double, _ field: String, _ range: ClosedRange<Double>, note: String? = nil) {
            guard value.isFinite else { return check(false, field, "must be a finite number, got \(value)") }
            check(
                range.contains(value), field,
                note.map { "\($0), got \(NumberText.plain(value))" }
                    ?? "must be between \(NumberText.plain(range.lowerBound)) and \(NumberText.plain(range.upperBound)), got \(NumberText.plain(value))"
            )
        }

        mutating func distribution(_ d: Distribution, _ field: String, _ range: ClosedRange<Double>) {
            switch d {
            case .fixed(let x): number(x, field, range)
            case .uniform(let a, let b):
                number(a, field + ".min", range)
                number(b, field + ".max", range)
                check(a <= b, field, "uniform min (\(NumberText.plain(a))) must not exceed max (\(NumberText.plain(b)))")
            case .triangular(let a, let m, let b):
                number(a, field + ".min", range)
                number(m, field + ".mode", range)
                number(b, field + ".max", range)
                check(a <= m && m <= b, field, "triangular needs min ≤ mode ≤ max")
            case .normal(let m, let s, let lo, let hi):
                number(m, field + ".mean", range)
                check(s.isFinite && s >= 0, field + ".sd", "must be a finite number ≥ 0")
                // Unclamped tails are fine when they practically never leave the valid range (6 sd).
                if (lo ?? -.infinity) < range.lowerBound && m - 6 * s < range.lowerBound {
                    check(
                        false, field + ".min",
                        "a normal distribution here needs \"min\" of at least \(NumberText.plain(range.lowerBound)) so draws stay valid")
                }
                if (hi ?? .infinity) > range.upperBound && m + 6 * s > range.upperBound {
                    check(
                        false, field + ".max",
                        "a normal distribution here needs \"max\" of at most \(NumberText.plain(range.upperBound)) so draws stay valid")
                }
                if let lo, let hi { check(lo <= hi, field, "min must not exceed max") }
            case .lognormal(let m, let s):
                check(m.isFinite && m > 0, field + ".mean", "a lognormal mean must be a finite number > 0")
                check(s.isFinite && s >= 0, field + ".sd", "must be a finite number ≥ 0")
                check(
                    range.upperBound == .infinity || range.upperBound >= 1_000, field,
                    "a lognormal is unbounded; use beta, uniform or triangular for a value limited to \(NumberText.plain(range.lowerBound))...\(NumberText.plain(range.upperBound))"
                )
            case .beta(let a, let b):
                check(a.isFinite && a > 0 && b.isFinite && b > 0, field, "beta needs alpha > 0 and beta > 0")
                check(range.lowerBound <= 0 && range.upperBound >= 1, field, "beta draws lie in 0...1, outside the valid range")
            }
        }

        mutating func share(_ d: Distribution, _ field: String) { distribution(d, field, Bounds.share) }
        mutating func nonNegative(_ d: Distribution, _ field: String, max: Double) { distribution(d, field, 0...max) }
    }
}
