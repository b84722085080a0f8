import Foundation
import Testing
import WidgetQuotaModel
import WidgetQuotaTestSupport

/// "What it does": every design said back from its fields, and which designs a run compares.
@Suite("Design description") struct DesignDescriptionTests {
    @Test("The weather widget is said back with its triggers, TTL, policy, reload calls, interval and retry")
    func weatherWidget() throws {
        let example = try ScenarioLoader.decode(Data(SourceTree.text("docs/examples/weather-widget.json").utf8))
        let weather = try #require(example.designs.first { $0.name == "weather" })
        #expect(
            weather.whatItDoes
                == "Fetched by the app when it is opened and a BGAppRefreshTask asked for every 2 h (one API request a fetch), "
                + "into an App Group cache with a 45 min TTL: a trigger fetches only when the cache is older. "
                + "The widget reloads its timeline after 30 min, and only reads the cache; the app asks it to reload once "
                + "after each successful fetch. A failed fetch waits for the next trigger.")
    }

    @Test("A direct design says it has no cache and when it reloads; the app's reload calls are left out")
    func directDesign() {
        #expect(
            DesignPresets.direct.whatItDoes
                == "Fetched by the widget in getTimeline (one API request a fetch), with no cache: every trigger fetches, "
                + "and a failed fetch shows an error. The widget reloads its timeline after 1 h. A failed fetch waits for the next trigger."
        )
        var never = DesignPresets.direct
        never.reloadPolicy = .never
        #expect(
            never.whatItDoes.contains("The widget asks for no reload: it reloads when the app asks, or when WidgetKit reloads on its own."))
    }

    @Test("Backoff, several requests, reloads on every fetch, a push and an aligned poll are all said")
    func everyOtherField() {
        var d = Design(name: "busy")
        d.fetchTriggers = [.getTimeline, .push]
        d.requestsPerFetch = 2
        d.reloadPolicy = .after(minutes: 15)
        d.reloadCalls = .everyFetch
        d.retry = .backoff(maxRetries: 3, baseSeconds: 2, jitter: false)
        d.alignToWallClockMinutes = 30
        d.jitterSeconds = 600
        let text = d.whatItDoes
        #expect(
            text.hasPrefix("Fetched by the widget in getTimeline and the app when a push says the data changed (2 API requests a fetch)"))
        #expect(
            text.contains(
                "reloads its timeline after 15 min, on wall-clock boundaries every 30 min plus up to 10 min of random offset per device"))
        #expect(text.contains("reload after every fetch attempt, failures included"))
        #expect(text.hasSuffix("retried at once up to 3 times, 2 s apart and doubling, without jitter."))
        #expect(DesignPresets.prebuiltTimeline.whatItDoes.contains("builds 12 entries 30 min apart and reloads after the last"))
        #expect(DesignPresets.pollAligned.whatItDoes.contains("every 30 min on every device at once"))
    }

    @Test("The shown summary is the hand-written one, else what it does, also for a preset the scenario changed")
    func shownSummary() throws {
        let s = try ScenarioLoader.decode(
            Data(
                #"""
                {"designs": [{"name": "mine", "fetchTriggers": ["appForeground"], "cacheTTLMinutes": 60},
                             {"name": "cache-bgtask", "cacheTTLMinutes": 720},
                             {"name": "cache-on-open", "cacheTTLMinutes": 30, "summary": "Ours."}]}
                """#.utf8))
        func shown(_ name: String) throws -> String { try #require(s.availableDesigns.first { $0.name == name }).shownSummary }
        let mine = try #require(s.designs.first { $0.name == "mine" })
        #expect(try shown("mine") == mine.whatItDoes)
        #expect(try shown("cache-bgtask").hasPrefix("Fetched by the app when it is opened and a BGAppRefreshTask"))
        #expect(try shown("cache-bgtask").contains("a 12 h TTL"))
        #expect(try shown("cache-bgtask").hasSuffix("(The cache-bgtask preset, changed by the scenario: cacheTTLMinutes.)"))
        #expect(try shown("cache-on-open") == "Ours.")
        #expect(try shown("direct") == DesignPresets.direct.summary)
    }

    @Test("A scenario with designs compares its own and its baseline; presets join when asked; none: every preset")
    func comparedDesigns() throws {
        let own = try ScenarioLoader.decode(
            Data(#"{"designs": [{"name": "mine", "fetchTriggers": ["appForeground"], "cacheTTLMinutes": 60}]}"#.utf8))
        #expect(own.comparedDesigns().map(\.name) == ["cache-bgtask", "mine"])
        #expect(own.comparedDesigns(withPresets: true).map(\.name) == DesignPresets.all.map(\.name) + ["mine"])
        #expect(Scenario().comparedDesigns().map(\.name) == DesignPresets.all.map(\.name))
        var mineIsBaseline = own
        mineIsBaseline.baseline = "mine"
        #expect(mineIsBaseline.comparedDesigns().map(\.name) == ["mine"])
    }

    @Test("A backend design says where the paid call runs, a Live Activity design how its activities are updated")
    func backendAndLiveActivity() {
        var d = DesignPresets.direct
        d.backend = BackendGeneration(regenerate: .every(minutes: 5))
        d.backend?.popular = .init(keys: 100, everyMinutes: 1)
        d.policyFollowsHours = true
        #expect(
            d.whatItDoes.contains(
                "owner's backend, which calls the paid API per content key on a schedule, every(5), the top 100 keys every(1)"))
        #expect(d.whatItDoes.contains("at the next opening while closed"))
        d.backend = BackendGeneration(regenerate: .onChange)
        var activity = LiveActivity()
        activity.priority = 5
        d.liveActivity = activity
        #expect(d.whatItDoes.contains("per content key on each change of a key"))
        #expect(
            d.whatItDoes.contains("50% of a key's users follow it in a Live Activity") && d.whatItDoes.contains("(priority 5, channel)"))
        #expect(!DesignPresets.direct.whatItDoes.contains("backend") && !DesignPresets.direct.whatItDoes.contains("Live Activity"))
    }
}
