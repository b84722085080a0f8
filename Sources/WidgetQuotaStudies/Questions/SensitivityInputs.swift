import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Inputs of a scenario that are fixed numbers rather than uncertain assumptions, but that an
/// owner guesses before launch and that move the decision: how many keys a user follows, how
/// many keys there are, and WidgetKit's daily reload budget. The sensitivity analysis moves each
/// to a low and a high value, as it moves an assumption to its p5 and p95.
struct SensitivityInput: Sendable {
    /// The scenario path the report names.
    let path: String
    /// The value as the scenario has it.
    let value: Double
    let low: Double
    let high: Double
    /// How the input was moved, when a factor on it is (nil: the values say it).
    var movedAs: String? = nil
    /// Sets the input to a value in a scenario.
    let apply: @Sendable (inout Scenario, Double) -> Void

    /// How the input was moved, in the distribution column's words: `fixed 5; moved to 2 and 10`.
    var summary: String {
        movedAs ?? "fixed \(NumberText.plain(value)); moved to \(NumberText.plain(low)) and \(NumberText.plain(high))"
    }

    /// The inputs that matter for `design` in `scenario`: keys a user follows where requests or
    /// credits follow them (a backend design, or credits per key), the number of keys for a
    /// backend design, and the reload budget for a design whose widget reloads.
    static func inputs(of scenario: Scenario, design: Design) -> [SensitivityInput] {
        var inputs = [SensitivityInput]()
        let content = scenario.content
        let perKey = scenario.api.pricing?.creditsPerKey != nil
        // The keys a user follows swing by half and double: one count, or every count of a mix
        // (a factor on each, kept within 1 ... content.keys).
        if design.backend != nil || perKey || design.requestPerKey, let mix = content.keysPerUserMix {
            let most = min(content.keys, 1_000)
            inputs.append(
                .init(
                    path: "content.keysPerUserMix", value: 1, low: 0.5, high: 2,
                    movedAs:
                        "a mix of mean \(NumberText.plain(content.meanKeysPerUser, maxFractionDigits: 2)); every count halved and doubled"
                ) { s, v in
                    s.content.keysPerUserMix = mix.map {
                        .init(keys: min(max(Int((Double($0.keys) * v).rounded()), 1), most), share: $0.share)
                    }
                })
        }
        if design.backend != nil || perKey || design.requestPerKey, content.keysPerUserMix == nil {
            let k = content.keysPerUser
            let low = max(1, k / 2)
            let high = min(max(2 * k, 2), min(content.keys, 1_000))
            if low < high {
                inputs.append(
                    .init(path: "content.keysPerUser", value: Double(k), low: Double(low), high: Double(high)) { s, v in
                        s.content.keysPerUser = Int(v)
                    })
            }
        }
        if design.backend != nil {
            let n = content.keys
            let low = max(1, n / 2)
            let high = min(2 * n, ScenarioValidator.maxContentKeys)
            if low < high {
                inputs.append(
                    .init(path: "content.keys", value: Double(n), low: Double(low), high: Double(high)) { s, v in
                        s.content = s.content.withKeys(Int(v))
                    })
            }
        }
        let platform = scenario.platform
        let budget = Double(platform.reloadBudgetMin + platform.reloadBudgetMax) / 2
        if budget >= 2 {
            // Both ends of the per-widget budget's range move by a quarter.
            inputs.append(
                .init(path: "platform.reloadBudgetMin/Max", value: budget, low: (budget * 0.75).rounded(), high: (budget * 1.25).rounded())
                {
                    s, v in
                    let factor = v / budget
                    s.platform.reloadBudgetMin = max(1, Int((Double(platform.reloadBudgetMin) * factor).rounded()))
                    s.platform.reloadBudgetMax = max(s.platform.reloadBudgetMin, Int((Double(platform.reloadBudgetMax) * factor).rounded()))
                })
        }
        return inputs
    }
}
