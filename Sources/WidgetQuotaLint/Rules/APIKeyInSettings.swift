import Foundation
import WidgetQuotaModel
import WidgetQuotaSwiftSource

/// `api-key-in-client` in what ships beside the code: property lists and build settings.
///
/// A property list's string value shaped like a key, or a secret-named key (`GeminiAPIKey`)
/// holding a key-like value, is in the bundle that ships. An `.xcconfig` setting is too once an
/// `Info.plist` reads it (`$(NAME)`), and it sits in the repository either way, so both are
/// reported, each saying which. Values that are themselves a setting (`$(GEMINI_KEY)`) are
/// followed to the setting, not reported twice. Files in test folders are not read, nor
/// `.entitlements` (no key lives there) nor `GoogleService-Info.plist` (or a copy per configuration,
/// `GoogleService-Info-Release.plist`): Firebase documents the key in it as an identifier of the
/// project, meant to ship in the app.
extension APIKeyInClientRule {
    func settingsFindings(_ tree: AppSourceTree) -> [Finding] {
        var findings = [Finding]()
        for path in tree.propertyLists.keys.sorted() where Self.isShippedSetting(path) {
            guard let list = tree.propertyLists[path] else { continue }
            let side = Self.bundleSide(of: path, in: tree)
            var seen = Set<String>()
            Self.walk(list, keyPath: "") { keyPath, value in
                guard !value.contains("$("), !value.contains("${"), let what = Self.keyDescription(name: keyPath, value: value),
                    seen.insert(value).inserted
                else { return }
                findings.append(
                    finding(
                        path, tree.appGroupRuleLocation(of: value, in: path),
                        "`\(keyPath)` in \(side) is \(what): a property list ships in the bundle, where anyone can read it",
                        fix: Self.fix))
            }
        }
        for path in tree.buildConfigurationTexts.keys.sorted() where Self.isShippedSetting(path) {
            guard let text = tree.buildConfigurationTexts[path] else { continue }
            for (line, setting) in Self.settings(in: text) {
                guard let what = Self.keyDescription(name: setting.name, value: setting.value) else { continue }
                let reader = Self.infoPlistReading(setting.name, in: tree)
                let ships =
                    reader.map { "`\($0)` copies it into the bundle through `$(\(setting.name))`, where anyone can read it" }
                    ?? "no Info.plist reads it, but it is committed with the project"
                findings.append(
                    finding(
                        path, SourceLocation(line: line, column: setting.column),
                        "the build setting `\(setting.name)` is \(what): \(ships)", fix: Self.fix))
            }
        }
        return findings
    }

    /// "a Google API key `AIzaSy…` (39 characters)" for a value shaped like a key or a key-like
    /// value under a secret name; nil otherwise.
    package static func keyDescription(name: String, value: String) -> String? {
        if let (kind, key) = keyShape(in: value) { return "\(kind) \(redacted(key))" }
        let last = String(name.split(separator: ".").last ?? "")
        if isSecretName(last), looksLikeSecret(value) { return "a key-like value \(redacted(value))" }
        return nil
    }

    static func isShippedSetting(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        if parts.contains(where: { $0 == "Tests" || $0.hasSuffix("Tests") }) { return false }
        let name = parts.last.map(String.init) ?? path
        // Firebase's file, also per configuration (`GoogleService-Info-Release.plist`, `mock-GoogleService-Info.plist`).
        return !name.hasSuffix(".entitlements") && !(name.contains("GoogleService-Info") && name.hasSuffix(".plist"))
    }

    /// "the widget extension's Info.plist", "the app's Info.plist" or "`Config.plist`".
    static func bundleSide(of path: String, in tree: AppSourceTree) -> String {
        for target in tree.targets where target.infoPlistPath == path {
            switch target.role {
            case .widgetExtension: return "the widget extension's Info.plist"
            case .app: return "the app's Info.plist"
            case .unknown: return "`\(target.name)`'s Info.plist"
            }
        }
        return "`\(path)`"
    }

    /// Every string value of `list` with its dotted key path (array items by their index).
    static func walk(_ list: PropertyList, keyPath: String, _ visit: (String, String) -> Void) {
        var stack = [(list, keyPath)]
        while let (item, path) = stack.popLast() {
            switch item {
            case .string(let s): visit(path, s)
            case .dictionary(let d):
                for key in d.keys.sorted().reversed() { stack.append((d[key]!, path.isEmpty ? key : path + "." + key)) }
            case .array(let a):
                for (i, element) in a.enumerated().reversed() { stack.append((element, path + "[\(i)]")) }
            default: break
            }
        }
    }

    /// The settings an `.xcconfig` file makes, by line: `NAME = value` and `NAME[sdk=…] = value`,
    /// with `//` comments removed as Xcode removes them.
    static func settings(in text: String) -> [(line: Int, setting: (name: String, value: String, column: Int))] {
        var out = [(line: Int, setting: (name: String, value: String, column: Int))]()
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var row = Substring(raw)
            if let comment = row.range(of: "//") { row = row[..<comment.lowerBound] }
            // NAME, then conditions such as `[sdk=iphoneos*][config=Release]`, then `=`.
            let trimmed = row.drop { $0 == " " || $0 == "\t" }
            let name = String(trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            var rest = trimmed.dropFirst(name.count)
            while rest.first == "[", let close = rest.firstIndex(of: "]") { rest = rest[rest.index(after: close)...] }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard !name.isEmpty, rest.first == "=" else { continue }
            let equals = rest.startIndex
            let afterEquals = row[row.index(after: equals)...]
            // A line may end in CR (CRLF files) or a `;`, which Xcode accepts.
            var value = afterEquals.trimmingCharacters(in: .whitespacesAndNewlines)
            if value.hasSuffix(";") { value = String(value.dropLast()).trimmingCharacters(in: .whitespaces) }
            let leading = afterEquals.prefix { $0 == " " || $0 == "\t" }.utf8.count
            let column = raw.utf8.distance(from: raw.startIndex, to: equals) + 2 + leading
            out.append((k + 1, (name, value.trimmingCharacters(in: CharacterSet(charactersIn: "\"")), column)))
        }
        return out
    }

    /// The first property list (by path) that reads the setting `name` as `$(name)` or `${name}`.
    static func infoPlistReading(_ name: String, in tree: AppSourceTree) -> String? {
        tree.propertyListTexts.keys.sorted().first { path in
            guard let text = tree.propertyListTexts[path] else { return false }
            return text.contains("$(\(name))") || text.contains("${\(name)}") || text.contains("$(\(name):")
        }
    }
}
