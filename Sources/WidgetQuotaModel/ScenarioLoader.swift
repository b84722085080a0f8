import Foundation
import WidgetQuotaSupport

/// Reads scenario files: decodes, rejects unknown keys (suggesting the nearest valid one) and validates.
public enum ScenarioLoader {
    /// Loads and validates the scenario at `path`.
    public static func load(path: String) throws -> Scenario {
        let data = try InputFile.contents(of: path)
        let file = InputFile.name(path)
        do {
            return try decode(data, file: file)
        } catch WidgetQuotaError.invalidScenario(let field, let problem) {
            throw WidgetQuotaError.malformedScenario(file: file, problem: "\(field): \(problem)")
        }
    }

    /// Decodes and validates scenario JSON; `file` names the source in messages.
    public static func decode(_ data: Data, file: String = "scenario") throws -> Scenario {
        try decode(data, file: file, migrating: false).scenario
    }

    /// Loads the scenario at `path` written for an earlier release: the named migrations remove
    /// the keys that release replaced (each applied one is returned, with the values it removed),
    /// then the scenario is checked as `load` checks it.
    package static func migrate(path: String) throws -> (scenario: Scenario, applied: [ScenarioMigration.Applied]) {
        let data = try InputFile.contents(of: path)
        let file = InputFile.name(path)
        do {
            return try decode(data, file: file, migrating: true)
        } catch WidgetQuotaError.invalidScenario(let field, let problem) {
            throw WidgetQuotaError.malformedScenario(file: file, problem: "\(field): \(problem)")
        }
    }

    private static func decode(
        _ data: Data, file: String, migrating: Bool
    ) throws -> (scenario: Scenario, applied: [ScenarioMigration.Applied]) {
        var data = JSONSyntax.withoutByteOrderMark(data)
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw WidgetQuotaError.emptyInput(file: file)
        }
        try WidgetQuotaError.checkJSONSyntax(data, file: file)
        let tree: Any
        do {
            tree = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw WidgetQuotaError.malformedScenario(file: file, problem: "not valid JSON (\(JSONProblem.describe(error)))")
        }
        guard var object = tree as? [String: Any] else {
            throw WidgetQuotaError.malformedScenario(file: file, problem: "expected a JSON object at the top level")
        }
        var applied: [ScenarioMigration.Applied] = []
        if migrating {
            applied = ScenarioMigration.all.compactMap { $0.apply(to: &object) }
            if !applied.isEmpty { data = try JSONSerialization.data(withJSONObject: object) }
        }
        try checkKeys(object, against: referenceTree(), path: "")
        let scenario: Scenario
        do {
            scenario = try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw WidgetQuotaError.malformedScenario(file: file, problem: JSONProblem.describe(error))
        }
        try ScenarioValidator.validate(scenario)
        return (scenario, applied)
    }

    /// Pretty, key-sorted JSON for a scenario (what `widget-quota scenario` prints).
    public static func encode(_ scenario: Scenario) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(scenario)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: Unknown keys

    /// A scenario with every optional part present, so its JSON names every valid key.
    private static func referenceTree() -> Any {
        var s = Scenario()
        s.name = ""
        s.quotas.tiers = [
            QuotaTier(
                name: "", rpm: 1, tpm: 1, rph: 1, rpd: 1, readOn: "", note: "", qualification: .init(minimumSpend: 1), monthlyFee: 1,
                includedPerMonth: 1, overagePerUnit: 1)
        ]
        s.api.pricing = APIPricing(per: .credit, creditsPerKey: 1, pricePerUnit: 1)
        s.api.pricing?.volumeTiers = [.init(upTo: 1, pricePerUnit: 1)]
        s.api.catalogue = ""
        s.targets.maxTier = ""
        s.targets.maxCostPerMonth = 1
        var backend = DesignPresets.direct
        backend.backend = BackendGeneration(regenerate: .every(minutes: 1))
        backend.backend?.pricePerMillionRequests = 1
        backend.backend?.onlyWhenOpen = true
        backend.backend?.popular = .init(keys: 1, everyMinutes: 1)
        backend.policyFollowsHours = true
        backend.requestPerKey = true
        backend.interactive = true
        backend.requestsPerTap = 1
        backend.liveActivity = LiveActivity()
        s.content.keysPerUserMix = [.init(keys: 1, share: 1)]
        s.content.groups = [.init(name: "", keys: 1, hours: OpenHours(), dataChanges: 1)]
        s.designs = [backend]
        s.calendar.dayKinds = [DayKind(name: "", weekdays: [.monday], factors: DayFactors(startHourUTC: 0, hours: 1))]
        s.calendar.events = [CalendarEvent(name: "", day: 1, factors: DayFactors(startHourUTC: 0, hours: 1))]
        s.calendar.startDate = ""
        s.calendar.hours = OpenHours()
        s.horizon.growth = .curve(start: 1, end: 2, months: 2, curve: .linear)
        s.calibration = Calibration(fields: [], source: "", design: "", getTimelineLoggedShare: 1, notes: [])
        let data = (try? JSONEncoder().encode(s)) ?? Data("{}".utf8)
        return (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
    }

    /// Keys of the object forms a scalar-valued field may take (distributions, policies, retries).
    private static let objectFormKeys: Set<String> = [
        "distribution", "value", "min", "max", "mode", "mean", "sd", "alpha", "beta",
        "kind", "minutes", "maxRetries", "baseSeconds", "jitter",
    ]

    /// Fields that hold whole numbers (checked here because some Foundation versions report a
    /// fractional value for an integer field without naming the field).
    private static let wholeNumberKeys: Set<String> = [
        "schemaVersion", "days", "warmupDays", "users", "runs", "seed", "sampleUsers", "instancesWhenMulti",
        "reloadBudgetMin", "reloadBudgetMax", "rarelyViewedBudget", "day", "timelineEntries", "requestsPerFetch", "maxRetries",
        "growth", "start", "end", "months", "keys", "keysPerUser", "requestsPerGeneration", "daysSinceFirstPayment", "priority",
    ]

    private static func checkWholeNumbers(_ value: Any, key: String, path: String) throws {
        guard wholeNumberKeys.contains(key) else { return }
        let values = (value as? [Any]) ?? [value]
        for (index, item) in values.enumerated() {
            guard let number = item as? NSNumber, !(item is Bool) else { continue }
            let v = number.doubleValue
            let at = value is [Any] ? "\(path)[\(index)]" : path
            if key == "seed" {
                // Any UInt64, as --seed takes; read from the digits, since doubles round near 2^64.
                if UInt64(number.stringValue) == nil && !(v == v.rounded() && v >= 0 && v < 0x1p63) {
                    throw WidgetQuotaError.invalidScenario(
                        field: at, problem: "must be a whole number between 0 and \(UInt64.max), got \(number)")
                }
                continue
            }
            if v != v.rounded() || !v.isFinite || abs(v) > 9.2e18 {
                throw WidgetQuotaError.invalidScenario(field: at, problem: "must be a whole number, got \(number)")
            }
        }
    }

    /// Keys that scenarios of earlier versions held, with what replaced them. Their old values
    /// meant something else, so they are refused with the way forward rather than read;
    /// `ScenarioMigration` removes them when asked to.
    static let replacedKeys: [String: String] = [
        "platform.getTimelinePerDay":
            "was WidgetKit's getTimeline rate regardless of the design; the reload policy, the app's reload calls and "
            + "Smart Stack now drive getTimeline, and platform.systemReloadsPerDay holds only WidgetKit's own reloads "
            + "(default: triangular 0, 2, 4 per instance-day). Remove the key (`widget-quota scenario --migrate FILE` "
            + "does it), or emit the scenario again with `widget-quota analyze LOGS --design D --emit-scenario FILE`",
        "population.smartStackUplift":
            "was a multiplier on WidgetKit's getTimeline rate; Smart Stack now has rotations that run a due reload, "
            + "population.smartStackRotationsPerDay (default: uniform 2–12 a day). Remove the key "
            + "(`widget-quota scenario --migrate FILE` does it), or emit the scenario again with "
            + "`widget-quota analyze LOGS --design D --emit-scenario FILE`",
    ]

    /// The dotted paths of the keys refused as replaced.
    package static var replacedKeyPaths: [String] { replacedKeys.keys.sorted() }

    private static func checkKeys(_ value: Any, against reference: Any, path: String) throws {
        if let object = value as? [String: Any] {
            // An object form of a scalar field (a distribution, a policy, a retry) has its own keys.
            let isObjectForm = object["distribution"] != nil || object["kind"] != nil
            let allowed: Set<String>
            // An object form of a field whose default is a number or another form has its own keys.
            if !isObjectForm, let refObject = reference as? [String: Any], refObject["distribution"] == nil {
                allowed = Set(refObject.keys)
            } else {
                allowed = objectFormKeys
            }
            for key in object.keys.sorted() {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if let replacement = replacedKeys[childPath] {
                    throw WidgetQuotaError.invalidScenario(field: childPath, problem: replacement)
                }
                guard allowed.contains(key) else {
                    var problem = "unknown key \(quoted(key))"
                    // The nearest by edits, or a key this one begins (`cacheTTL` for `cacheTTLMinutes`).
                    if let suggestion = Levenshtein.nearest(to: key, in: allowed)
                        ?? allowed.sorted().first(where: { $0.lowercased().hasPrefix(key.lowercased()) })
                    {
                        problem += "; did you mean \"\(suggestion)\"?"
                    }
                    throw WidgetQuotaError.invalidScenario(field: childPath, problem: problem)
                }
                try checkWholeNumbers(object[key]!, key: key, path: childPath)
                if !isObjectForm, let refObject = reference as? [String: Any], let child = refObject[key] {
                    try checkKeys(object[key]!, against: child, path: childPath)
                }
            }
        } else if let array = value as? [Any], let refArray = reference as? [Any], let first = refArray.first {
            for (index, item) in array.enumerated() {
                try checkKeys(item, against: first, path: "\(path)[\(index)]")
            }
        }
    }
}

/// Turns decoding errors into one readable sentence naming the field.
enum JSONProblem {
    static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            return text ?? "\(error)"
        }
        func path(_ context: DecodingError.Context) -> String {
            let text = context.codingPath.map { key -> String in
                if let index = key.intValue { return "[\(index)]" }
                return "." + key.stringValue
            }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(typeName(type)), found null"
        case .keyNotFound(let key, let context):
            let at = path(context)
            return "\(at.isEmpty ? "" : at + ": ")missing \"\(key.stringValue)\""
                + (context.debugDescription.hasPrefix("a ") ? " (\(context.debugDescription))" : "")
        case .dataCorrupted(let context):
            let at = path(context)
            return (at.isEmpty ? "" : at + ": ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type, is UInt64.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Distribution.Type: return "a number or a distribution object"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }
}
