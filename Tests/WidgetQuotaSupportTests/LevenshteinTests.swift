import Testing
import WidgetQuotaSupport

/// The suggestion for a misspelt key or name: the fewest edits, two neighbouring letters swapped
/// counting as one.
@Suite("Edit distance")
struct LevenshteinTests {
    @Test(
        "Distances",
        arguments: [
            ("rph", "rph", 0), ("rhp", "rph", 1), ("rhp", "rpd", 2), ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3),
            ("ca", "abc", 3), ("RPM", "rpm", 0), ("reloadPolciy", "reloadPolicy", 1),
        ])
    func distance(a: String, b: String, expected: Int) {
        #expect(Levenshtein.distance(a, b) == expected)
        #expect(Levenshtein.distance(b, a) == expected)
    }

    @Test("A swapped pair of letters suggests the key it was meant to be")
    func swappedLetters() {
        #expect(Levenshtein.nearest(to: "rhp", in: ["rpd", "rph", "rpm", "tpm"]) == "rph")
        #expect(Levenshtein.nearest(to: "zzzz", in: ["rpd", "rph"]) == nil)
    }
}
