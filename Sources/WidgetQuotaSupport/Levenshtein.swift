/// Edit distance, for "did you mean" suggestions.
package enum Levenshtein {
    /// The edit distance between two strings, case aside: insertions, deletions, substitutions,
    /// and two neighbouring letters swapped as one edit (`rhp` is one edit from `rph`).
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased())
        let b = Array(b.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The closest candidate within a third of the word's length (at least 2 edits), if any.
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        guard word.count <= 64 else { return nil }
        let limit = max(2, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(word, candidate)
            guard d <= limit else { continue }
            // The fewest edits; among equals, the first in alphabetical order.
            if let b = best, b.distance < d || (b.distance == d && b.candidate <= candidate) { continue }
            best = (candidate, d)
        }
        return best?.candidate
    }
}
