import WidgetQuotaModel
import WidgetQuotaSupport

/// Whether one run's peaks exceed each limit of one quota tier, and what share of each limit they use.
package struct TierRunOutcome: Equatable {
    package var exceedsRequestsPerMinute: Bool
    package var exceedsTokensPerMinute: Bool
    package var exceedsRequestsPerHour: Bool
    package var exceedsRequestsPerDay: Bool
    /// Peak ÷ limit, nil when the tier publishes no such limit.
    package var requestsPerMinuteUtilization: Double?
    package var tokensPerMinuteUtilization: Double?
    package var requestsPerHourUtilization: Double?
    package var requestsPerDayUtilization: Double?
    /// The month's billed units beyond what a plan without overage includes, and their share of it
    /// (nil: the tier has no such cap).
    package var exceedsMonthlyVolume = false
    package var monthlyVolumeUtilization: Double?

    package var exceedsAnyLimit: Bool {
        exceedsRequestsPerMinute || exceedsTokensPerMinute || exceedsRequestsPerHour || exceedsRequestsPerDay || exceedsMonthlyVolume
    }

    /// Holds the run's billed units of the month against a plan's monthly cap.
    package mutating func add(monthlyUnits units: Double, cap: Double) {
        exceedsMonthlyVolume = units > cap
        monthlyVolumeUtilization = cap > 0 ? units / cap : nil
    }

    init(tier: QuotaTier, load: LoadSummary, tokensPerRequest tokens: Double) {
        self.init(tier: tier, peaks: load.peaks, tokensPerRequest: tokens)
    }

    /// - Parameters: the run's busiest minute, clock hour and quota day in requests, and its tokens per request.
    package init(tier: QuotaTier, peaks: QuotaPeaks, tokensPerRequest tokens: Double) {
        let e = tier.exceeded(peaks, tokensPerRequest: tokens)
        exceedsRequestsPerMinute = e.rpm
        exceedsTokensPerMinute = e.tpm
        exceedsRequestsPerHour = e.rph
        exceedsRequestsPerDay = e.rpd
        requestsPerMinuteUtilization = tier.rpm.map { peaks.perMinute / $0 }
        tokensPerMinuteUtilization = tier.tpm.map { peaks.perMinute * tokens / $0 }
        requestsPerHourUtilization = tier.rph.map { peaks.perHour / $0 }
        requestsPerDayUtilization = tier.rpd.map { peaks.quotaDay / $0 }
    }
}

/// One quota tier's outcomes over the runs: how often each limit is exceeded, and the p95 use of it.
package struct TierOutcomesAcrossRuns {
    private(set) var runs: [TierRunOutcome] = []

    package init(runs: [TierRunOutcome] = []) {
        self.runs = runs
    }

    package mutating func add(_ outcome: TierRunOutcome) { runs.append(outcome) }

    /// The share of runs for which `exceeds` holds.
    func share(_ exceeds: (TierRunOutcome) -> Bool) -> Double {
        Double(runs.filter(exceeds).count) / Double(max(runs.count, 1))
    }

    /// The p95 over the runs of a utilisation, nil when the tier has no such limit.
    func p95(_ utilization: (TierRunOutcome) -> Double?) -> Double? {
        let present = runs.compactMap(utilization)
        return present.isEmpty ? nil : RunSpread(present).p95
    }

    package func outcome(tier: QuotaTier) -> DesignResult.TierOutcome {
        .init(
            tier: tier.name,
            exceedProbability: share(\.exceedsAnyLimit),
            rpmExceedProbability: share(\.exceedsRequestsPerMinute),
            tpmExceedProbability: share(\.exceedsTokensPerMinute),
            rpdExceedProbability: share(\.exceedsRequestsPerDay),
            rphExceedProbability: tier.rph == nil ? nil : share(\.exceedsRequestsPerHour),
            rpmUtilizationP95: p95(\.requestsPerMinuteUtilization),
            tpmUtilizationP95: p95(\.tokensPerMinuteUtilization),
            rpdUtilizationP95: p95(\.requestsPerDayUtilization),
            rphUtilizationP95: p95(\.requestsPerHourUtilization),
            monthlyVolumeExceedProbability: runs.contains { $0.monthlyVolumeUtilization != nil } ? share(\.exceedsMonthlyVolume) : nil,
            monthlyVolumeUtilizationP95: p95(\.monthlyVolumeUtilization))
    }
}

/// The load figures of every run, in run order.
struct LoadAcrossRuns {
    private(set) var peakRequestsPerMinute: [Double] = []
    private(set) var meanRequestsPerMinute: [Double] = []
    /// Peak ÷ mean per run (0 when a run has no requests).
    private(set) var peakToMeanRatios: [Double] = []
    private(set) var peakTokensPerMinute: [Double] = []
    private(set) var peakRequestsPerQuotaDay: [Double] = []
    private(set) var peakRequestsPerHour: [Double] = []
    /// How many runs had each quota day (0 = the first complete one) as their busiest.
    private(set) var runsByBusiestQuotaDay: [Int: Int] = [:]

    mutating func add(_ load: LoadSummary, tokensPerRequest tokens: Double) {
        peakRequestsPerMinute.append(load.peakPerMinute)
        meanRequestsPerMinute.append(load.meanPerMinute)
        peakToMeanRatios.append(load.meanPerMinute > 0 ? load.peakPerMinute / load.meanPerMinute : 0)
        peakTokensPerMinute.append(load.peakPerMinute * tokens)
        peakRequestsPerQuotaDay.append(load.peakQuotaDay)
        peakRequestsPerHour.append(load.peakPerHour)
        runsByBusiestQuotaDay[load.busiestQuotaDay, default: 0] += 1
    }

    /// The quota day most runs found busiest (the earliest on a tie), 0 = the first complete one.
    var busiestQuotaDay: Int {
        runsByBusiestQuotaDay.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? 0
    }

    var summary: DesignResult.Load {
        .init(
            peakRequestsPerMinute: RunSpread(peakRequestsPerMinute), meanRequestsPerMinute: Statistics.mean(meanRequestsPerMinute),
            peakToMeanRatio: Statistics.mean(peakToMeanRatios), peakTokensPerMinute: RunSpread(peakTokensPerMinute),
            peakRequestsPerQuotaDay: RunSpread(peakRequestsPerQuotaDay), peakRequestsPerHour: RunSpread(peakRequestsPerHour),
            busiestQuotaDay: busiestQuotaDay + 1)
    }
}

/// What outages added in every run: extra requests per user, and the retry storm's peak beside
/// the usual peak at that hour (for runs that have both).
struct OutageAcrossRuns {
    private(set) var extraRequestsPerUser: [Double] = []
    private(set) var stormPeaks: [Double] = []
    private(set) var usualPeaks: [Double] = []

    mutating func add(extraRequestsPerUser extra: Double?, load: LoadSummary) {
        if let extra { extraRequestsPerUser.append(extra) }
        if let storm = load.afterOutagePeak, let usual = load.afterOutageUsualPeak {
            stormPeaks.append(storm)
            usualPeaks.append(usual)
        }
    }

    /// The impact on `users` users, nil when no run had an outage.
    func impact(users n: Int) -> DesignResult.OutageImpact? {
        guard !extraRequestsPerUser.isEmpty else { return nil }
        let extra = Statistics.mean(extraRequestsPerUser)
        let usual = usualPeaks.isEmpty ? 0 : Statistics.mean(usualPeaks)
        let storm = RunSpread(stormPeaks.isEmpty ? [0] : stormPeaks)
        return .init(
            extraRequestsPerUserMonth: extra, extraRequestsPerMonth: extra * Double(n),
            peakAfterOutagePerMinute: storm, usualPeakPerMinute: usual,
            stormRatio: usual > 0 ? storm.mean / usual : nil)
    }
}

/// The billed cost of every run at one price.
struct CostAcrossRuns {
    let price: PriceTable.Price
    private(set) var perMonth: [Double] = []

    init(price: PriceTable.Price) { self.price = price }

    /// Adds a run's cost: failed requests are not billed, so the total scales by the run's success rate.
    mutating func add(totalRequests total: Double, tally: UserTally, parameters p: RunParameters) {
        let billed = total * tally.billedShare
        perMonth.append(billed * (p.inputTokensPerRequest * price.inputCostPerToken + p.outputTokensPerRequest * price.outputCostPerToken))
    }

    func cost(model: String, users n: Int, priceSource: String) -> DesignResult.Cost {
        DesignResult.Cost(
            model: model, inputCostPerToken: price.inputCostPerToken,
            outputCostPerToken: price.outputCostPerToken, perMonth: RunSpread(perMonth),
            perUserMonth: Statistics.mean(perMonth) / Double(n), priceSource: priceSource)
    }
}

/// Requests of every run for one user count: the total per run (exact, or projected from the
/// sample) and every sampled user's count.
package struct RequestsAcrossRuns {
    let users: Int
    let exact: Bool
    package private(set) var totalPerRun: [Double] = []

    package init(users: Int, exact: Bool, totalPerRun: [Double] = []) {
        self.users = users
        self.exact = exact
        self.totalPerRun = totalPerRun
    }
    package private(set) var perUser = CountHistogram()

    /// Adds a run's per-user counts; a projected total scales the sample mean to `users`.
    /// Returns the run's total.
    @discardableResult
    package mutating func add(_ counts: CountHistogram) -> Double {
        perUser = perUser.merged(with: counts)
        let sum = Double(counts.sum)
        let total = exact ? sum : sum / Double(counts.count) * Double(users)
        totalPerRun.append(total)
        return total
    }
}

extension UserTally {
    /// `value ÷ over`, 0 when nothing was counted.
    package static func ratio(_ value: Int64, _ over: Int64) -> Double { over > 0 ? Double(value) / Double(over) : 0 }

    /// The share of requests a provider bills: those that did not fail (1 when none was sent).
    var billedShare: Double { requests > 0 ? 1 - Double(failedRequests) / Double(requests) : 1 }

    /// A count per simulated user-day.
    package func perUserDay(_ count: KeyPath<UserTally, Int64>) -> Double { UserTally.ratio(self[keyPath: count], userDays) }

    package var successfulFetches: Int64 { fetches - failedFetches }
}
