import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaSimulation
import WidgetQuotaSimulationTestSupport
import WidgetQuotaSupport
import WidgetQuotaTestSupport

/// The fast engine's parts: reused workspaces, the Poisson clocks, observers, alignment.
@Suite("simulator internals") struct SimulatorInternalsTests {
    static func model(_ design: String, scenario: Scenario? = nil) -> SimulationModel {
        var s = scenario ?? TestSupport.smallScenario(users: [40], runs: 1, days: 5)
        s.population.multiWidgetShare = 0.5  // many users with several instances
        s.population.instancesWhenMulti = 3
        let index = s.availableDesigns.firstIndex { $0.name == design }!
        return SimulationModel(
            scenario: s, design: s.availableDesigns[index], run: 1,
            parameters: RunParameters.draw(s, run: 1))
    }

    /// One workspace reused user after user must give what a fresh one per user gives.
    @Test("reused workspace leaks nothing between users", arguments: DesignPresets.all.map(\.name))
    func reusedWorkspaceLeaksNothingBetweenUsers(design: String) {
        let m = SimulatorInternalsTests.model(design)
        let shared = SimulationWorkspace(model: m)
        for user in 0..<40 {
            var reused = UserSimulator(model: m, user: user, observer: NoObserver(), workspace: shared)
            reused.run()
            var fresh = UserSimulator(model: m, user: user, observer: NoObserver())
            fresh.run()
            #expect(reused.tally == fresh.tally, "user \(user)")
            #expect(reused.monthRequests == fresh.monthRequests)
        }
    }

    /// Records what an observer sees, as the trace command does.
    struct Recorder: SimulationObserver {
        var events: [(SimulationEvent, Double)] = []
        mutating func record(_ event: SimulationEvent, local: Double, utc: Double) { events.append((event, local)) }
    }

    /// An observer sees the same run as the engine's silent one, glances in time order.
    @Test("observed run matches the tally", arguments: ["direct", "cache-bgtask", "poll-30m-aligned"])
    func observedRunMatchesTheTally(design: String) {
        let m = SimulatorInternalsTests.model(design)
        for user in 0..<20 {
            var silent = UserSimulator(model: m, user: user, observer: NoObserver())
            silent.run()
            var seen = UserSimulator(model: m, user: user, observer: Recorder())
            seen.run()
            #expect(seen.tally == silent.tally)
            let counted = { (t: Double) in t >= Double(m.countedFirstDay) * 86_400 && t < Double(m.countedEndDay) * 86_400 }
            let glances = seen.observer.events.filter { if case .glance = $0.0 { return true } else { return false } }.map(\.1)
            #expect(glances.filter(counted).count == Int(silent.tally.glances))
            #expect(zip(glances, glances.dropFirst()).allSatisfy { $0 <= $1 })
            let requests = seen.observer.events.filter { if case .apiRequest = $0.0 { return true } else { return false } }
            #expect(requests.filter { counted($0.1) }.count == Int(silent.tally.requests))
            #expect(seen.lowPower.count == m.simulatedDays + 1)
        }
    }

    /// The clock's counts per day and per hour follow its masses and its day shape.
    @Test("poisson clock follows its masses and shape") func poissonClockFollowsItsMassesAndShape() {
        let days = 400
        let weights = (0..<24).map { Double(($0 * 7) % 5) }  // zero-weight hours included
        let shape = DayShape(weights: weights)
        let storage = UnsafeMutablePointer<Double>.allocate(capacity: 3 * days + 1)
        defer { storage.deallocate() }
        let doubles = UnsafeMutablePointer<Double>.allocate(capacity: ShapeTable.doubles)
        let slots = UnsafeMutablePointer<UInt8>.allocate(capacity: ShapeTable.hourSlots)
        defer {
            doubles.deallocate()
            slots.deallocate()
        }
        let table = ShapeTable.write(shape, doubles: doubles, slots: slots)
        let mass = { (d: Int) in d % 2 == 0 ? 30.0 : 10.0 }
        var clock = PoissonClock(storage: storage, days: days, shape: table, dayMass: mass)
        var rng = RandomStream(state: 99)
        var perParity = [0.0, 0.0]
        var perHour = [Double](repeating: 0, count: 24)
        var previous = 0.0
        var total = 0.0
        while true {
            let t = clock.next(&rng, ExponentialTables.shared)
            guard t.isFinite else { break }
            #expect(t >= previous)
            previous = t
            perParity[Int(t / 86_400) % 2] += 1
            perHour[Int(t.truncatingRemainder(dividingBy: 86_400) / 3_600)] += 1
            total += 1
        }
        #expect(previous < Double(days) * 86_400)
        // Means 30 and 10 per day over 200 days each: within 5 standard errors.
        #expect(abs(perParity[0] / 200 - 30) < 5 * (30.0 / 200).squareRoot())
        #expect(abs(perParity[1] / 200 - 10) < 5 * (10.0 / 200).squareRoot())
        let weightSum = weights.reduce(0, +)
        for h in 0..<24 {
            let expected = total * weights[h] / weightSum
            #expect(abs(perHour[h] - expected) <= 5 * expected.squareRoot() + 1e-9, "hour \(h)")
        }
        // Restarting after a time never goes back.
        for t in stride(from: 0.0, to: Double(days - 1) * 86_400, by: 9_999.5) {
            let next = clock.next(after: t, &rng, ExponentialTables.shared)
            #expect(next > t)
        }
    }

    /// The hour lookup (a slot table plus a correction scan) agrees with a plain search, at hour
    /// boundaries, at exact slot edges, near 0 and at 1.
    @Test("hour lookup matches a plain search") func hourLookupMatchesAPlainSearch() {
        let weights = (0..<24).map { Double(($0 * 7) % 5) + ($0 == 3 ? 0.001 : 0) }  // zero and tiny hours
        let shape = DayShape(weights: weights)
        let doubles = UnsafeMutablePointer<Double>.allocate(capacity: ShapeTable.doubles)
        let slots = UnsafeMutablePointer<UInt8>.allocate(capacity: ShapeTable.hourSlots)
        defer {
            doubles.deallocate()
            slots.deallocate()
        }
        let table = ShapeTable.write(shape, doubles: doubles, slots: slots)
        func plain(_ share: Double) -> Int {
            var hour = 0
            while hour < 23 && shape.cumulative[hour + 1] <= share { hour += 1 }
            return hour
        }
        var rng = RandomStream(state: 11)
        var shares: [Double] = [0, 1e-300, 1e-9, 1, 1.0.nextDown] + shape.cumulative.flatMap { [$0, $0.nextDown, $0.nextUp] }
        shares += (0...ShapeTable.hourSlots).map { Double($0) / Double(ShapeTable.hourSlots) }
        shares += (0..<20_000).map { _ in rng.uniform() }
        for share in shares where share >= 0 && share <= 1 {
            #expect(table.hour(atShare: share) == plain(share), "share \(share)")
        }
        // A rounding slip below zero gives the day's first hour rather than wrapping to the last.
        #expect(table.hour(atShare: -1e-17) == plain(0))
    }

    /// The widget stream is the superposition it claims: calls per day follow the day's mass,
    /// glances are their share of each day, and times ascend within the window.
    @Test("widget stream splits calls and glances") func widgetStreamSplitsCallsAndGlances() {
        let m = SimulatorInternalsTests.model("direct")
        let ws = SimulationWorkspace(model: m)
        let days = 300
        var rng = RandomStream(state: 3)
        let calls = { (d: Int) in d % 3 == 0 ? 45.0 : 15.0 }
        let stream = WidgetStream.generate(
            in: ws.activity, days: days, callsPerDay: calls, glancesPerDay: { _ in 10 },
            rng: &rng, tables: ExponentialTables.shared)
        var perDay = Array(repeating: (calls: 0.0, glances: 0.0), count: 2)  // busy days, quiet days
        var previous = 0.0
        for i in 0..<stream.count {
            let t = stream.times[i]
            #expect(t >= previous && t < Double(days) * 86_400)
            previous = t
            let d = Int(t / 86_400) % 3
            if stream.kinds[i] == .glance { perDay[min(d, 1)].glances += 1 } else { perDay[min(d, 1)].calls += 1 }
        }
        #expect(stream.times[stream.count] == .infinity)
        // 100 busy days (45 calls) and 200 quiet ones (15), 10 glances on every day: within 5 standard errors.
        #expect(abs(perDay[0].calls - 4_500) < 5 * 4_500.0.squareRoot())
        #expect(abs(perDay[1].calls - 3_000) < 5 * 3_000.0.squareRoot())
        #expect(abs(perDay[0].glances - 1_000) < 5 * 1_000.0.squareRoot())
        #expect(abs(perDay[1].glances - 2_000) < 5 * 2_000.0.squareRoot())
    }

    @Test("ceil matches the standard library") func ceilMatchesTheStandardLibrary() {
        var rng = RandomStream(state: 5)
        let samples: [Double] =
            [0, -0.0, 1, -1, 2.5, -2.5, 1e15 + 0.5, -0.3, 86_400, 0.999_999_999_999]
            + (0..<10_000).map { _ in
                (rng.uniform() - 0.3) * 3e6
            }
        for x in samples {
            #expect(UserSimulator<NoObserver>.ceil(x) == x.rounded(.up), "\(x)")
        }
    }

    @Test("an integer threshold draws the same Bernoulli answers as comparing the uniform double")
    func bernoulliThresholdMatchesUniform() {
        var pick = RandomStream(state: 17)
        // Edges (0, 1, beyond, NaN, the smallest steps of 2⁻⁵³) and probabilities at random.
        var probabilities: [Double] = [
            0, -0.5, 1, 1.5, .nan, .leastNonzeroMagnitude, 0x1.0p-53, 0x1.8p-53, 0x1.0p-52,
            1 - 0x1.0p-53, 0.5, 0.016, 0.3,
        ]
        probabilities += (0..<200).map { _ in pick.uniform() }
        for p in probabilities {
            let threshold = RandomStream.threshold(p)
            var a = RandomStream(state: 1_000 + threshold % 97)
            var b = a
            for _ in 0..<2_000 {
                #expect(a.bernoulli(threshold: threshold) == (b.uniform() < p), "p = \(p)")
            }
            // The draws right at the threshold decide: a uniform just below p is a yes, p itself a no.
            if p > 0 && p < 1 {
                #expect(Double(threshold - 1) * 0x1.0p-53 < p && !(Double(threshold) * 0x1.0p-53 < p), "p = \(p)")
            }
        }
    }

    /// One device's getTimeline calls over its counted days (local seconds, and whether each is a
    /// policy reload), with a budget that never runs out and a phone that is never idle.
    static func timelines(_ design: Design, systemCallsPerDay: Double? = nil, idleHours: Double = 0) -> (
        calls: [(t: Double, policy: Bool)], model: SimulationModel
    ) {
        var s = TestSupport.smallScenario(users: [1], runs: 1, days: 4)
        s.population.idleHours = idleHours
        // The policy's dates themselves: WidgetKit's lateness after them has its own tests.
        s.platform.policyLatenessMinutes = 0
        if let calls = systemCallsPerDay {
            // WidgetKit's own calls, and no Smart Stack to add more.
            s.platform.systemReloadsPerDay = .fixed(calls)
            s.population.smartStackShare = .fixed(0)
        }
        s.platform.reloadBudgetMin = 100_000
        s.platform.reloadBudgetMax = 100_000
        s.population.rarelyViewedShare = 0
        s.population.multiWidgetShare = 0
        s.designs = [design]
        let m = SimulationModel(scenario: s, design: design, run: 0, parameters: RunParameters.central(s))
        var sim = UserSimulator(model: m, user: 0, observer: Recorder())
        sim.run()
        let calls = sim.observer.events.compactMap { event, t -> (Double, Bool)? in
            guard case .getTimeline(_, let origin, _) = event, t >= Double(m.countedFirstDay) * 86_400,
                t < Double(m.countedEndDay) * 86_400
            else { return nil }
            return (t, origin == .policy)
        }
        return (calls, m)
    }

    /// An aligned 30-minute poll reloads at every :00 and :30, however WidgetKit's own calls fall
    /// between them (the remote-data widget article's stampede): a WidgetKit call does not make it
    /// skip the next boundary. Only a call in the last 5 minutes before a boundary (the minimum
    /// spacing) moves that reload.
    @Test("an aligned poll reloads at every boundary") func anAlignedPollReloadsAtEveryBoundary() {
        let (calls, m) = SimulatorInternalsTests.timelines(DesignPresets.pollAligned)
        let boundaries = Set((0..<(48 * (m.countedEndDay - m.countedFirstDay))).map { Double(m.countedFirstDay * 86_400 + $0 * 1_800) })
        let reloads = Set(calls.filter(\.policy).map(\.t))
        let crowded = Set(
            calls.filter { !$0.policy }.compactMap { call -> Double? in
                let next = (call.t / 1_800).rounded(.up) * 1_800
                return next - call.t < 300 ? next : nil
            })
        #expect(
            boundaries.subtracting(reloads).subtracting(crowded).count <= 1,
            "missed \(boundaries.subtracting(reloads).subtracting(crowded).sorted())")
        // (A reload in the first 5 minutes may follow a call before the counted days, not listed.)
        let start = Double(m.countedFirstDay * 86_400) + 300
        let off = reloads.subtracting(boundaries).filter { t in t >= start && !calls.contains { !$0.policy && abs(t - 300 - $0.t) < 1e-6 } }
        #expect(off.isEmpty, "off the boundaries: \(off.sorted().prefix(5))")
    }

    /// A delay shorter than the alignment (`.after(15 min)` on the hour) asks for the next hour,
    /// not for a reload every five minutes.
    @Test("a short delay aligned to the hour waits for the hour") func aShortDelayAlignedToTheHourWaitsForTheHour() {
        var d = DesignPresets.pollAligned
        d.reloadPolicy = .after(minutes: 15)
        d.alignToWallClockMinutes = 60
        let (calls, m) = SimulatorInternalsTests.timelines(d)
        let reloads = calls.filter(\.policy).map(\.t)
        let days = m.countedEndDay - m.countedFirstDay
        #expect(!reloads.isEmpty && reloads.count <= 26 * days, "\(reloads.count) reloads in \(days) days")
        // On the hour, or as soon as the minimum spacing allows after a call just before it.
        // (A reload in the first 5 minutes may follow a call before the counted days, not listed.)
        let start = Double(m.countedFirstDay * 86_400) + 300
        #expect(
            reloads.allSatisfy { t in
                t < start || t.truncatingRemainder(dividingBy: 3_600) == 0 || calls.contains { !$0.policy && abs(t - 300 - $0.t) < 1e-6 }
            })
    }

    /// `.atEnd` reloads when the last entry's date has passed: (entries − 1) spacings after the
    /// timeline was built, and no sooner than the minimum spacing (5 min) for a single entry.
    @Test("at end reloads at the last entry", arguments: [(3, 60.0, 7_200.0), (12, 30.0, 19_800.0), (1, 60.0, 300.0)])
    func atEndReloadsAtTheLastEntry(entries: Int, spacingMinutes: Double, expectedSeconds: Double) {
        var d = Design(name: "at-end")
        d.fetchTriggers = [.appForeground]
        d.cacheTTLMinutes = 60
        d.reloadPolicy = .atEnd
        d.timelineEntries = entries
        d.entrySpacingMinutes = spacingMinutes
        let calls = SimulatorInternalsTests.timelines(d, systemCallsPerDay: 0.5).calls
        let gaps = zip(calls, calls.dropFirst()).filter { $1.policy }.map { $1.t - $0.t }
        #expect(!gaps.isEmpty)
        #expect(gaps.allSatisfy { abs($0 - expectedSeconds) < 1e-6 }, "gaps \(Set(gaps).sorted())")
    }

    /// Retries run only while what started them runs: background requests stay inside their
    /// task's slice and the task completes after its last one; the app's stop once it is
    /// suspended.
    @Test("retries end with what started them", arguments: [true, false])
    func retriesEndWithWhatStartedThem(hang: Bool) {
        var d = Design(name: "retrying")
        d.fetchTriggers = [.appForeground, .backgroundTask, .getTimeline]
        d.cacheTTLMinutes = 60
        d.retry = .backoff(maxRetries: 6, baseSeconds: 2, jitter: false)
        var s = TestSupport.smallScenario(users: [30], runs: 1, days: 5)
        s.api.failureProbability = .fixed(0.6)
        s.api.hangShareOfFailures = hang ? 1 : 0
        s.designs = [d]
        let m = SimulationModel(scenario: s, design: d, run: 0, parameters: RunParameters.central(s))
        let slice = s.platform.taskSliceSeconds
        var retriedInBackground = 0
        for user in 0..<30 {
            var sim = UserSimulator(model: m, user: user, observer: Recorder())
            sim.run()
            var launch: Double?
            var lastRequest = -Double.infinity
            var inForeground = false
            var backgroundRequests = 0
            var launches = 0
            var completions = 0
            var lastTimeline = -Double.infinity
            for (event, t) in sim.observer.events {
                switch event {
                case .bgTaskLaunch:
                    launch = t
                    backgroundRequests = 0
                    launches += 1
                case .getTimeline:
                    lastTimeline = t
                case .apiRequest(.widgetExtension, _, _, _):
                    #expect(t - lastTimeline < slice, "user \(user): an extension request \(t - lastTimeline) s after getTimeline")
                case .apiRequest(.background, _, _, _):
                    let start = try! #require(launch, "a background request outside any task")
                    #expect(t >= start && t < start + slice, "user \(user): background request \(t - start) s into its task")
                    lastRequest = t
                    backgroundRequests += 1
                    if backgroundRequests > 1 { retriedInBackground += 1 }
                case .bgTaskComplete:
                    #expect(launch != nil, "user \(user): a task completed twice")
                    completions += 1
                    #expect(t >= lastRequest || launch.map { lastRequest < $0 } == true)
                    launch = nil
                case .appForeground:
                    inForeground = true
                case .appBackground:
                    inForeground = false
                case .apiRequest(.app, _, _, _):
                    #expect(inForeground, "user \(user): an app request at \(t) while the app is suspended")
                default:
                    break
                }
            }
            // Every task completes (but one still running when the window ends).
            #expect(
                completions == launches || completions == launches - 1, "user \(user): \(launches) launches, \(completions) completions")
        }
        #expect(retriedInBackground > 0, "the scenario exercises background retries")
    }
}
