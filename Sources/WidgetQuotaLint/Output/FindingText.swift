import Foundation
import WidgetQuotaModel

/// A finding's message, fix and cost as sentences, for outputs that run them together (SARIF,
/// annotations, Xcode): each ends with a full stop, so the first sentence stands alone.
enum FindingText {
    /// `text` trimmed, ending with `.`, `!` or `?`.
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }

    /// The message and its fix (and cost) in one line: "…. Fix: …. Cost: …."
    static func line(_ f: Finding) -> String {
        var parts = [sentence(f.message), "Fix: " + sentence(f.fix)]
        if let cost = f.cost { parts.append("Cost: " + sentence(cost)) }
        return parts.joined(separator: " ")
    }
}
